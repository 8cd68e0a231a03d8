import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The files scene: places, then a folder tree whose top folders and the folders in them are
/// open; a folder opened for the first time shows its contents (made from its path, the same
/// each time), not its placeholder; closed and opened again it keeps what it read and which of
/// its folders were open; Right and Left work its rows from the keyboard.
@MainActor
@Suite struct FilesSceneTests {
    let d = SceneDriver(.files)
    var source: ListDiffableDataSource<String, String> {
        d.window.retainedObjects.compactMap { $0 as? ListDiffableDataSource<String, String> }.first!
    }
    var rows: [String] { (0..<d.list.rowCount).map { source.itemIdentifier(forRow: $0)! } }

    func press(_ key: Key) {
        let t = d.time + 0.02
        d.send(.key(key, pressed: true, modifiers: []), at: t)
        d.send(.key(key, pressed: false, modifiers: []), at: t + 0.05)
        d.driver.settle()
    }

    @Test func theTreeOpensOnItsTopFoldersAndTheFoldersInThem() throws {
        #expect(Array(rows.prefix(5)) == FileTree.placeNames + ["/Documents"])
        let docs = FileTree.contents(of: "/Documents")
        let first = try #require(docs.folders.first)
        // Documents' first folder, open, with its own folders closed on their placeholders.
        let firstRow = try #require(source.row(for: first))
        let inner = FileTree.contents(of: first)
        #expect(
            Array(rows[(firstRow + 1)...].prefix(inner.folders.count + inner.files.count)) == inner.folders
                + inner.files)
        let outline = source.snapshot(for: FileTree.disk)
        #expect(FileTree.topFolders.allSatisfy { outline.isExpanded($0) })
        #expect(inner.folders.allSatisfy { !outline.isExpanded($0) && outline.children(of: $0).count == 1 })
        #expect(outline.level(of: inner.files[0]) == 2)
        // The same folder always holds the same things; a file's name has an extension.
        #expect(FileTree.contents(of: first) == inner && !FileTree.isFolder(inner.files[0]))
        #expect(rows.count > 25, "the tree runs past the window")
    }

    /// A closed folder's chevron tapped: its contents come in below it (never "Loading…"),
    /// at level 3; closed and opened again, it keeps them.
    @Test func aFolderReadsItsContentsAsItFirstOpens() throws {
        let outline = source.snapshot(for: FileTree.disk)
        let folder = try #require(FileTree.contents(of: FileTree.contents(of: "/Documents").folders[0]).folders.first)
        let row = try #require(source.row(for: folder))
        let r = d.list.convert(d.list.rectForRow(row), to: nil)
        // The chevron of a row at level 2: 16 + 2 × 20 in, 24 wide.
        d.send(from: d.time + 0.05) { $0.tap(at: Point(x: r.minX + 16 + 40 + 12, y: r.midY), at: 0, hold: 60) }
        d.driver.settle()
        let contents = FileTree.contents(of: folder)
        #expect(
            Array(rows[(row + 1)...].prefix(contents.folders.count + contents.files.count)) == contents.folders
                + contents.files)
        #expect(!rows.contains { $0.hasPrefix(folder + "/\u{2026}") } && outline != source.snapshot(for: FileTree.disk))
        let cell = try #require(d.list.visibleCells[row + 1])
        #expect(cell.indentationLevel == 3 && !cell.textLabel.text.hasPrefix("Loading"))
        #expect(
            source.collapse(folder, animatingDifferences: false) && source.expand(folder, animatingDifferences: false))
        d.driver.settle()
        #expect(source.snapshot(for: FileTree.disk).children(of: folder) == contents.folders + contents.files)
    }

    /// From the keyboard: Tab to the first place, Down to Documents, Left closes it, Right
    /// opens it and goes to its first folder.
    @Test func theKeysOpenCloseAndWalkTheTree() throws {
        press(.tab)
        for _ in FileTree.placeNames { press(.down) }
        #expect((d.window.focusedView as? ListCell)?.textLabel.text == "Documents")
        press(.left)
        let documents = try #require(source.row(for: "/Documents"))
        #expect(rows[documents + 1] == "/Music" && !source.snapshot(for: FileTree.disk).isExpanded("/Documents"))
        press(.right)
        press(.right)
        let first = try #require(FileTree.contents(of: "/Documents").folders.first)
        let focused = try #require(d.window.focusedView as? ListCell)
        #expect(d.list.row(for: focused) == source.row(for: first) && focused.indentationLevel == 1)
    }
}
