import ScrollwayScrolling
import Testing

/// An outline's snapshot: items under parents, the items a list shows (depth first, through
/// expanded parents only), levels, subtrees taken out and put in, and edits it refuses
/// without changing anything.
@Suite struct SectionSnapshotTests {
    /// Documents (Work (Plans, Notes (Monday)), Letters), Music, Pictures (Summer):
    /// Documents and Work expanded.
    static func folders() -> SectionSnapshot<String> {
        var s = SectionSnapshot<String>()
        s.append(["Documents", "Music", "Pictures"])
        s.append(["Work", "Letters"], to: "Documents")
        s.append(["Plans", "Notes"], to: "Work")
        s.append(["Monday"], to: "Notes")
        s.append(["Summer"], to: "Pictures")
        s.expand(["Documents", "Work"])
        return s
    }

    /// An edit's answer (`#expect` cannot call a mutating method itself).
    func edited(_ edit: () -> Bool) -> Bool { edit() }

    @Test func theListShowsEveryItemUnderExpandedParentsDepthFirst() {
        let s = Self.folders()
        #expect(s.count == 9 && s.rootItems == ["Documents", "Music", "Pictures"])
        #expect(s.items == ["Documents", "Work", "Plans", "Notes", "Monday", "Letters", "Music", "Pictures", "Summer"])
        #expect(s.visibleItems == ["Documents", "Work", "Plans", "Notes", "Letters", "Music", "Pictures"])
        #expect(s.level(of: "Documents") == 0 && s.level(of: "Work") == 1 && s.level(of: "Monday") == 3)
        #expect(s.level(of: "Nowhere") == -1)
        #expect(s.parent(of: "Monday") == "Notes" && s.parent(of: "Music") == nil)
        #expect(s.children(of: "Work") == ["Plans", "Notes"] && s.children(of: "Music").isEmpty)
        #expect(s.isVisible("Notes") && !s.isVisible("Monday") && !s.isVisible("Summer"))
        #expect(s.index(of: "Letters") == 5 && s.index(of: "Nowhere") == nil)
    }

    /// Collapsing hides a parent's descendants but keeps their own marks: opened again, an
    /// expanded child shows its children at once.
    @Test func collapsingKeepsTheDescendantsMarks() {
        var s = Self.folders()
        #expect(edited { s.collapse(["Documents"]) })
        #expect(s.visibleItems == ["Documents", "Music", "Pictures"])
        #expect(s.isExpanded("Work") && !s.isVisible("Work"))
        #expect(edited { s.expand(["Documents", "Notes"]) })
        #expect(s.visibleItems == ["Documents", "Work", "Plans", "Notes", "Monday", "Letters", "Music", "Pictures"])
        // A leaf may be marked open: it has nothing to show.
        #expect(edited { s.expand(["Music"]) } && s.isExpanded("Music") && s.visibleItems.count == 8)
    }

    @Test func insertsGoBesideTheirAnchorsAndDeletesTakeTheSubtree() {
        var s = Self.folders()
        #expect(edited { s.insert(["Budget"], before: "Notes") })
        #expect(edited { s.insert(["Videos"], after: "Music") })
        #expect(s.children(of: "Work") == ["Plans", "Budget", "Notes"] && s.parent(of: "Budget") == "Work")
        #expect(s.rootItems == ["Documents", "Music", "Videos", "Pictures"])
        #expect(edited { s.delete(["Work"]) })
        #expect(!s.contains("Plans") && !s.contains("Monday") && s.count == 6)
        #expect(s.children(of: "Documents") == ["Letters"])
        s.deleteAll()
        #expect(s.count == 0 && s.visibleItems.isEmpty)
    }

    /// A parent's subtree as an outline of its own, and a folder's children replaced by
    /// another outline (loaded contents).
    @Test func subtreesComeOutAndGoIn() {
        var s = Self.folders()
        let work = s.snapshot(of: "Work")
        #expect(work.rootItems == ["Plans", "Notes"] && work.items == ["Plans", "Notes", "Monday"])
        #expect(work.parent(of: "Plans") == nil && work.parent(of: "Monday") == "Notes")
        let withParent = s.snapshot(of: "Work", includingParent: true)
        #expect(
            withParent.rootItems == ["Work"] && withParent.isExpanded("Work") && withParent.level(of: "Monday") == 2)
        #expect(s.snapshot(of: "Nowhere").count == 0)

        var loaded = SectionSnapshot<String>()
        loaded.append(["Beach", "Hills"])
        loaded.append(["Dunes"], to: "Beach")
        #expect(edited { s.replace(childrenOf: "Pictures", using: loaded) })
        #expect(!s.contains("Summer") && s.children(of: "Pictures") == ["Beach", "Hills"])
        #expect(s.parent(of: "Beach") == "Pictures" && s.level(of: "Dunes") == 2)

        var more = SectionSnapshot<String>()
        more.append(["Drafts"])
        #expect(edited { s.append(more, to: "Letters") } && s.children(of: "Letters") == ["Drafts"])
        #expect(!edited { s.append(more, to: "Music") }, "Drafts is already in the outline")
    }

    /// What an outline cannot hold is refused, and the outline is as it was.
    @Test func impossibleEditsChangeNothing() {
        let s = Self.folders()
        var t = s
        #expect(!edited { t.append(["Work"]) }, "an item already there")
        #expect(!edited { t.append(["New", "New"]) }, "an item named twice")
        #expect(!edited { t.append(["Fresh", "Plans"], to: "Music") }, "one of several already there")
        #expect(!edited { t.append(["Fresh"], to: "Nowhere") }, "a parent not there")
        #expect(!edited { t.insert(["Fresh"], before: "Nowhere") || t.insert(["Fresh"], after: "Nowhere") })
        #expect(!edited { t.delete(["Music", "Nowhere"]) || t.expand(["Nowhere"]) || t.collapse(["Nowhere"]) })
        var clash = SectionSnapshot<String>()
        clash.append(["Letters"])
        #expect(!edited { t.replace(childrenOf: "Pictures", using: clash) }, "Letters is elsewhere")
        #expect(!edited { t.replace(childrenOf: "Nowhere", using: clash) })
        #expect(t == s)
        // Its own subtree may come back under it.
        #expect(edited { t.replace(childrenOf: "Work", using: s.snapshot(of: "Work")) } && t.items == s.items)
    }
}
