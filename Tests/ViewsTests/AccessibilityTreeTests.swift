import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayScrolling
import Testing

@testable import ScrollwayViews

/// The window as assistive technology sees it (issue 37): elements with roles, names, frames
/// in window coordinates and states, made from the view tree; plain views stand aside for what
/// they hold, and an element's insides are part of it.
@MainActor
@Suite struct AccessibilityTreeTests {
    @Test func aFormsElementsHaveRolesNamesFramesAndStates() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let panel = View(frame: Rect(x: 10, y: 20, width: 380, height: 260))
        let title = Label(text: "Sign in", frame: Rect(x: 0, y: 0, width: 200, height: 30))
        let name = TextField(placeholder: "Name", frame: Rect(x: 0, y: 40, width: 300, height: 44))
        let go = Button(title: "Go", frame: Rect(x: 0, y: 100, width: 80, height: 44))
        let picture = ImageView(frame: Rect(x: 100, y: 100, width: 40, height: 40))
        let hidden = Label(text: "secret", frame: Rect(x: 0, y: 150, width: 80, height: 20))
        hidden.isHidden = true
        for v in [title, name, go, picture, hidden] { panel.addSubview(v) }
        window.addSubview(panel)
        name.becomeFocused()
        try window.prepareFrame()

        let tree = window.accessibilityTree()
        #expect(tree.role == .window && tree.states.contains(.active))
        // The plain panel stands aside; the picture without a label and the hidden label are left out.
        #expect(tree.children.map(\.role) == [.staticText, .textField, .button])
        #expect(tree.children.map(\.label) == ["Sign in", "Name", "Go"])
        #expect(tree.children[2].frame == Rect(x: 10, y: 120, width: 80, height: 44))
        #expect(
            tree.children[1].states == [.visible, .showing, .enabled, .focusable, .focused, .editable, .singleLine])
        #expect(!tree.children[0].states.contains(.focusable))
        // Its label makes the picture an element; the app's role and hint win over the class's.
        picture.accessibilityLabel = "Avatar"
        go.accessibilityHint = "Signs you in"
        let again = window.accessibilityTree()
        #expect(again.children.map(\.label) == ["Sign in", "Name", "Go", "Avatar"])
        #expect(again.children[2].hint == "Signs you in" && again.children[3].role == .image)
        // Activating the button fires it, as a tap does.
        #expect(go.accessibilityActivate() && go.tapCount == 1)
        #expect(!title.accessibilityActivate())
    }

    /// The list of 100,000 rows gives the rows that have cells, named by their text, not a
    /// node per row; its section headers read as text.
    @Test func aHugeListGivesTheRowsItHasCellsFor() throws {
        let window = Scene.list.makeWindow()
        try window.prepareFrame()
        let tree = window.accessibilityTree()
        let list = try #require(tree.all.first { $0.role == .list })
        let rows = list.children.filter { $0.role == .listItem }
        #expect(rows.count > 5 && rows.count < 60, "\(rows.count) rows")
        let view = try #require(list.view as? ListView)
        let cells = view.subviews.compactMap { $0 as? ListCell }.filter { !$0.isHidden }
        #expect(Set(rows.map(\.label)) == Set(cells.map(\.textLabel.text)))
        #expect(rows.allSatisfy { !$0.label.isEmpty && $0.children.isEmpty })
        #expect(list.children.contains { $0.role == .staticText }, "no section header")
        // Rows below the window's bottom (the list's margin) are there, not showing.
        #expect(rows.contains { $0.states.contains(.showing) })
    }

    /// With its refresh control showing (refreshing, scrolled to show it), the control is one
    /// of the list's elements with its own index, and the cells count it: it had answered -1,
    /// and every cell's index was one short.
    @Test func aListsRefreshControlHasItsIndexAndTheCellsCountIt() throws {
        let window = Scene.list.makeWindow(size: Size(width: 390, height: 844))
        let view = try #require(window.view(named: "main") as? ListView)
        let refresh = RefreshControl()
        view.refreshControl = refresh
        refresh.beginRefreshing()
        view.contentOffset = Point(x: 0, y: -view.adjustedContentInset.top)
        try window.prepareFrame()
        let list = try #require(window.accessibilityTree().all.first { $0.role == .list })
        #expect(list.children.contains { $0.view === refresh }, "the refresh control is not shown")
        for (i, child) in list.children.enumerated() {
            #expect(view.accessibilityIndex(ofChild: child.view, in: window) == i, "\(child.label)")
        }
    }

    /// The demo forms' fields are named by the labels beside them, as an app should name
    /// them: a reader said "Type something" for each of the keyboard scene's sixteen fields,
    /// and the form's switches were push buttons called "On".
    @Test func theFormsFieldsAndSwitchesAreNamedByTheirLabels() throws {
        let keyboard = Scene.keyboard.makeWindow(size: Size(width: 390, height: 844))
        try keyboard.prepareFrame()
        let fields = keyboard.accessibilityTree().all.filter { $0.role == .textField }
        #expect(
            fields.count > 3 && fields.map(\.label) == fields.indices.map { "Field \($0 + 1)" },
            "\(fields.map(\.label))")
        let form = Scene.form.makeWindow(size: Size(width: 390, height: 844))
        try form.prepareFrame()
        let top = form.accessibilityTree().all
        let labels = Set(top.filter { [.textField, .textArea].contains($0.role) }.map(\.label))
        #expect(labels.isSuperset(of: ["Name", "Email", "Bio"]), "\(labels)")
        let main = try #require(form.view(named: "main") as? ScrollView)
        main.contentOffset = Point(x: 0, y: 600)
        try form.prepareFrame()
        let switches = form.accessibilityTree().all.filter { $0.role == .toggleButton }
        #expect(switches.count > 3, "\(switches.count) switches")
        #expect(switches.allSatisfy { !$0.label.isEmpty && $0.label != "On" }, "\(switches.map(\.label))")
    }

    /// Every element of the list says where it stands among its siblings as the tree orders
    /// them (a reader steps from `GetIndexInParent` to the next sibling), headers' titles
    /// included, at the top and with a header pinned over rows further down. A title had
    /// answered -1, and a reader stepping from it went back to the first child.
    @Test(arguments: [0.0, 1_234.5, 40_000.0])
    func everyListElementKnowsItsIndex(offset: Double) throws {
        let window = Scene.list.makeWindow(size: Size(width: 390, height: 844))
        let view = try #require(window.view(named: "main") as? ListView)
        view.contentOffset = Point(x: 0, y: offset)
        try window.prepareFrame()
        let list = try #require(window.accessibilityTree().all.first { $0.role == .list })
        #expect(list.children.contains { $0.role == .staticText }, "no header at \(offset)")
        for (i, child) in list.children.enumerated() {
            #expect(view.accessibilityIndex(ofChild: child.view, in: window) == i, "\(child.label) at \(offset)")
        }
    }

    /// A collection's cell is one element named by the labels it holds, in order, unless the
    /// app names it: hidden and transparent labels are not heard, a view with a label stands
    /// for what it holds, an unnamed element is passed over whole, an empty label is skipped.
    @Test func aCollectionCellIsNamedByTheLabelsItHolds() throws {
        final class Cell: CollectionCell {
            init() { super.init(reuseIdentifier: "cell") }
        }
        func label(_ text: String, in view: View) -> Label {
            let l = Label()
            l.text = text
            view.addSubview(l)
            return l
        }
        let cell = Cell()
        #expect(cell.resolvedAccessibility.label == nil)
        _ = label("Title", in: cell.contentView)
        label("Hidden", in: cell.contentView).isHidden = true
        label("Faded", in: cell.contentView).alpha = 0
        _ = label("", in: cell.contentView)
        let group = View()
        cell.contentView.addSubview(group)
        _ = label("Nested", in: group)
        let avatar = View()
        avatar.accessibilityLabel = "Avatar"
        avatar.isAccessibilityElement = true
        _ = label("Initials", in: avatar)
        cell.contentView.addSubview(avatar)
        let unnamed = View()
        unnamed.isAccessibilityElement = true
        _ = label("Inside an unnamed element", in: unnamed)
        cell.contentView.addSubview(unnamed)
        _ = label("Last", in: cell.contentView)
        // A label on the cell itself, outside its content view, is the cell's own affair.
        _ = label("Outside", in: cell)
        #expect(
            cell.resolvedAccessibility
                == AccessibilityDefaults(role: .listItem, label: "Title, Nested, Avatar, Last", isElement: true))
        cell.accessibilityLabel = "Named by the app"
        #expect(cell.resolvedAccessibility.label == "Named by the app")
    }

    /// What a view's change is heard from: the outermost element it is part of (a label in a
    /// cell is the cell's, however deep), else itself when it is an element, else its nearest
    /// container the tree shows, else the window; nothing outside the window.
    @Test func aViewsChangesAreTheOutermostElementsItIsPartOf() throws {
        let window = Window(size: Size(width: 300, height: 300))
        let list = ScrollView()
        list.accessibilityRole = .list
        window.addSubview(list)
        let cell = View()
        cell.isAccessibilityElement = true
        cell.accessibilityRole = .listItem
        list.addSubview(cell)
        let inner = View()
        cell.addSubview(inner)
        let deep = Label()
        inner.addSubview(deep)
        let free = Label()
        list.addSubview(free)
        let plain = View()
        list.addSubview(plain)
        let loose = View()
        window.addSubview(loose)
        #expect(deep.accessibilityElementAncestor(in: window) === cell)
        #expect(inner.accessibilityElementAncestor(in: window) === cell)
        #expect(cell.accessibilityElementAncestor(in: window) === cell)
        #expect(free.accessibilityElementAncestor(in: window) === free)
        #expect(plain.accessibilityElementAncestor(in: window) === list)
        #expect(loose.accessibilityElementAncestor(in: window) === window)
        #expect(Label().accessibilityElementAncestor(in: window) == nil)
    }

    /// The on-screen keyboard, while it shows, is a group named "Keyboard" of buttons named by
    /// what they type or do; a key's action types into the focused field as a tap does. Hidden,
    /// it is not in the tree.
    @Test func theOnScreenKeyboardsKeysAreButtonsThatType() throws {
        let window = Scene.keyboard.makeWindow()
        try window.prepareFrame()
        #expect(!window.accessibilityTree().all.contains { $0.label == "Keyboard" })
        let field = try #require(window.view(named: "field1") as? TextField)
        field.becomeFocused(byTouch: true)
        for t in stride(from: 0.0, through: 1.0, by: 1.0 / 60) { try window.prepareFrame(time: t) }
        let tree = window.accessibilityTree()
        let keyboard = try #require(tree.all.first { $0.label == "Keyboard" }, "the keyboard did not show")
        #expect(keyboard.role == .group)
        #expect(keyboard.children.allSatisfy { $0.role == .button })
        let names = Set(keyboard.children.map(\.label))
        #expect(
            names.isSuperset(of: ["q", "a", "Shift", "Delete", "Numbers and symbols", "Space", "Return"]), "\(names)")
        let q = try #require(keyboard.children.first { $0.label == "q" })
        #expect(q.view.accessibilityActivate())
        #expect(field.text == "q", "\(field.text)")
    }
}
