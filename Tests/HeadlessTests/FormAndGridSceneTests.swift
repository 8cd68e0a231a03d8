import Scrollway
import ScrollwayDemoScenes
import ScrollwayTestSupport
import Testing

/// The form scene (constraints and the content guide only) and the grid scene (a collection
/// view over 100,000 photos that opens a pager), driven offscreen as a user would.
@MainActor
@Suite struct FormAndGridSceneTests {
    func form(width: Double) throws -> (SceneDriver, SettingsForm) {
        let d = SceneDriver(.form, size: Size(width: width, height: 844))
        d.advance(to: 0.05)
        let form = try #require(d.window.firstView(of: SettingsForm.self))
        return (d, form)
    }

    @Test func theFormsContentSizeIsItsConstraintsAndGrowsAsTheWindowNarrows() throws {
        let (wide, wideForm) = try form(width: 390)
        let (narrow, _) = try form(width: 260)
        #expect(wide.window.unsatisfiableLayouts.isEmpty)
        #expect(narrow.window.unsatisfiableLayouts.isEmpty)
        #expect(wideForm.madeConstraints.count >= 280)
        // The content is as wide as the window and as tall as the form's last card + 32.
        #expect(wide.main.contentSize.width == 390)
        #expect(narrow.main.contentSize.width == 260)
        let last = try #require(wideForm.subviews.last)
        #expect(wide.main.contentSize.height == last.frame.maxY + 32)
        #expect(wideForm.frame == Rect(origin: .zero, size: wide.main.contentSize))
        // Narrower wraps the descriptions onto more lines.
        #expect(narrow.main.contentSize.height > wide.main.contentSize.height + 100)
        // Resized to the narrow width, the wide window's form is the narrow one's, to the point.
        wide.window.resize(to: Size(width: 260, height: 844))
        wide.advance(to: 0.2)
        #expect(wide.main.contentSize == narrow.main.contentSize)
        // No view is left ambiguous.
        var stack: [View] = [wideForm]
        while let v = stack.popLast() {
            #expect(!v.hasAmbiguousLayout, "\(v.name ?? "\(type(of: v))") is ambiguous")
            stack += v.subviews.filter { !$0.translatesAutoresizingMaskIntoConstraints }
        }
    }

    /// The Appearance section's stepper: a tap on its "+" (held past the scroll view's 150 ms,
    /// so it is the stepper's) shows one line more in its title; at 5 the "+" does nothing.
    @Test func thePreviewLinesStepperCountsInItsTitle() throws {
        let (d, form) = try form(width: 390)
        let stepper = try #require(form.view(named: "preview lines") as? Stepper)
        let title = try #require(stepper.superview?.subviews.compactMap { $0 as? Label }.first)
        #expect(stepper.value == 2 && title.text == "Preview lines: 2")
        d.main.scrollRectToVisible(stepper.convert(stepper.bounds, to: d.main), animated: false)
        d.advance(to: d.time + 0.05)
        let plus = stepper.convert(stepper.rect(for: .increment).center, to: nil)
        for _ in 0..<4 {
            _ = d.send(from: d.time + 0.05) { $0.tap(at: plus, at: 0, hold: 200) }
            d.advance(to: d.time + 0.4)
        }
        #expect(stepper.value == 5 && title.text == "Preview lines: 5")
        #expect(stepper.accessibilityValue?.text == "5" && stepper.accessibilityLabel == "Preview lines")
        #expect(d.window.unsatisfiableLayouts.isEmpty)
    }

    @Test func theBioGrowsTheFormLineByLineAsItWraps() throws {
        let (d, form) = try form(width: 390)
        let before = d.main.contentSize.height
        let bio = try #require(form.bio)
        let bioBefore = bio.frame.height
        let line = try #require(Font.standard).metrics(scale: 1).lineHeight
        bio.becomeFocused()
        bio.text = "I take photos of harbours at dawn, mostly from the water, and I write about the boats."
        d.advance(to: d.time + 0.1)
        let lines = bio.lineCount
        #expect(lines >= 2)
        #expect(bio.frame.height == (bio.textInset.vertical + Double(lines) * line).rounded(.up))
        #expect(d.main.contentSize.height == before + bio.frame.height - bioBefore)
        #expect(d.window.unsatisfiableLayouts.isEmpty)
    }

    /// Lines that arrive at once (a paste, an input method's commit) grow the bio to show them
    /// all from its first, in the frame they arrive: it had scrolled to the caret in its old,
    /// one-line height (the last line and a half showing, blank space under them), then sprang
    /// back to the top over half a second.
    @Test func linesArrivingAtOnceGrowTheBioFromItsFirst() throws {
        let (d, form) = try form(width: 390)
        let bio = try #require(form.bio)
        bio.becomeFocused()
        d.advance(to: d.time + 0.1)
        bio.editing.replaceSelection(with: "line one\nline two\nline three")
        var offsets: [Double] = []
        for _ in 0..<30 {
            d.advance(to: d.time + 1.0 / 60)
            offsets.append(bio.contentOffset.y)
        }
        #expect(bio.lineCount == 3)
        #expect(offsets.allSatisfy { $0 == 0 }, "\(offsets)")
        #expect(bio.contentSize.height <= bio.bounds.height)
    }

    @Test func aTappedThumbnailOpensThePagerAtItsPhotoAndCloseComesBack() throws {
        let d = SceneDriver(.grid)
        d.advance(to: 0.05)
        let grid = try #require(d.main as? CollectionView)
        // Only what is in view has cells: 100,000 photos, a few screens' worth of cells.
        #expect(grid.totalItems == PhotoGrid.count)
        #expect(grid.visibleCells.count < 60)
        // Photo 6 (roll 1, second row, third column): tapped in its middle.
        let frame = grid.frameForItem(at: ItemPath(item: 6))
        d.send(from: d.time + 0.05) { $0.tap(at: Point(x: frame.midX, y: frame.midY), at: 0, hold: 60, id: 1) }
        d.advance(to: d.time + 0.5)
        let viewer = try #require(d.window.view(named: "viewer") as? PhotoViewer)
        #expect(viewer.currentPhoto == 6)
        #expect(grid.selectedItem == ItemPath(item: 6))
        // A swipe left turns to photo 7.
        d.send(from: d.time + 0.05) {
            $0.drag(from: Point(x: 300, y: 400), to: Point(x: 100, y: 400), at: 0, ms: 120, id: 2, lift: true, step: 8)
        }
        d.advance(to: d.time + 1.5)
        #expect(viewer.currentPhoto == 7)
        #expect(viewer.contentOffset.x == 7 * viewer.bounds.width)
        // A wider window keeps the photo; the keys are the viewer's: Right turns a page.
        d.window.resize(to: Size(width: 600, height: 844))
        d.advance(to: d.time + 0.2)
        #expect(viewer.currentPhoto == 7 && viewer.contentOffset.x == 7 * 600)
        #expect(d.window.focusedView === viewer)
        d.send(.key(.right, pressed: true, modifiers: []), at: d.time + 0.02)
        d.send(.key(.right, pressed: false, modifiers: []), at: d.time + 0.05)
        d.advance(to: d.time + 1)
        #expect(viewer.currentPhoto == 8)
        d.window.resize(to: Size(width: 390, height: 844))
        d.advance(to: d.time + 0.2)
        // Close: back to the grid, where it was.
        let close = viewer.closeButton.convert(Rect(origin: .zero, size: viewer.closeButton.bounds.size), to: nil)
        d.send(from: d.time + 0.05) { $0.tap(at: Point(x: close.midX, y: close.midY), at: 0, hold: 60, id: 3) }
        d.advance(to: d.time + 0.5)
        #expect(d.window.view(named: "viewer") == nil)
        #expect(d.main === grid)
    }

    /// From the keyboard: Return opens the focused photo in the viewer (named for a reader),
    /// Right turns a page, and Escape closes it with the focus on the photo it showed, in view
    /// and selected: the next arrow goes on from there. The focus had been left on nothing,
    /// and Tab went back to the first photo.
    @Test func escapeFromTheViewerGivesTheFocusToThePhotoItShowed() throws {
        let d = SceneDriver(.grid)
        d.advance(to: 0.05)
        let grid = try #require(d.main as? CollectionView)
        func press(_ key: Key) {
            d.send(.key(key, pressed: true, modifiers: []), at: d.time + 0.02)
            d.send(.key(key, pressed: false, modifiers: []), at: d.time + 0.05)
            d.advance(to: d.time + 0.8)
        }
        press(.tab)
        press(.right)
        #expect((d.window.focusedView as? CollectionCell).flatMap { grid.itemPath(for: $0) } == ItemPath(item: 1))
        press(.enter)
        let viewer = try #require(d.window.view(named: "viewer") as? PhotoViewer)
        #expect(viewer.currentPhoto == 1 && d.window.focusedView === viewer)
        #expect(viewer.accessibilityLabel == "Photo viewer")
        for _ in 0..<40 { press(.right) }
        #expect(viewer.currentPhoto == 41)
        press(.escape)
        #expect(d.window.view(named: "viewer") == nil)
        let focused = try #require(d.window.focusedView as? CollectionCell)
        #expect(grid.itemPath(for: focused) == ItemPath(item: 5, section: 1))  // photo 42: roll 2, its 6th
        #expect(focused.accessibilityLabel == "Photo 42" && grid.selectedItem == ItemPath(item: 5, section: 1))
        let shown = focused.convert(focused.bounds, to: nil)
        #expect(shown.minY >= 0 && shown.maxY <= 844, "\(shown)")
        press(.right)
        #expect(
            (d.window.focusedView as? CollectionCell).flatMap { grid.itemPath(for: $0) }
                == ItemPath(item: 6, section: 1))
    }
}
