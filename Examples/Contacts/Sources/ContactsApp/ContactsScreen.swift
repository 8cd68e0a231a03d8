import Scrollway

/// The address book's one screen: a bar with the title and a search field, the people below in
/// a list with a section per letter (the current letter's header sticks to the top), pull to
/// refresh, a person's page over it all when a row is tapped, and a row swiped left shows
/// Delete, swiped all the way across deletes (the list still scrolls under a vertical drag).
/// Edit in the bar puts the list in editing: each person's delete control shows Delete, and
/// Done ends it. The alphabet down the right edge jumps to a letter under a touch. Under the last person,
/// the list says how many it holds (its footer view).
///
/// A person's page slides in from the right and goes back the way it came, as a navigation
/// controller's push and pop; a finger from the window's left edge takes it back by hand (the
/// pop's edge swipe), and let go it goes on out, or back in when not far or fast enough.
///
/// With the on-screen keyboard up (a touch on the search field brings it), the list's bottom
/// inset grows by what the keyboard covers, so every row can still be scrolled into view above
/// it. Escape goes back from a person's page, or clears the search.
///
/// The list shows snapshots (`ListDiffableDataSource`): every change to the people shown (a
/// search, a sync, a delete) builds the snapshot they make and applies it, and the list works
/// out what to insert, delete and move.
public final class ContactsScreen: View {
    public static let barHeight = 108.0
    public let book: AddressBook
    public let list = ListView()
    public let searchField = SearchField(placeholder: "Search")
    public let countLabel = Label()
    /// Under the last person, as the Contacts app's list ends: how many there are.
    public let footerLabel = Label()
    /// The person's page shown, or sliding in or following the finger back; nil once it goes.
    public private(set) var detail: DetailPage?
    /// How long a page takes to slide in or out, as a navigation controller's push and pop.
    public static let slideDuration = 0.35
    /// A page going back, sliding out over the list until it is gone.
    private var leaving: DetailPage?
    /// The edge swipe's animation: the page taken back by the finger, paused and scrubbed.
    private var backSwipe: ViewPropertyAnimator?
    /// How far out the page stood when the finger took it: 0 from rest, or where a swipe let
    /// go of it was still settling.
    private var backSwipeFrom = 0.0
    /// How long a pull to refresh "syncs" before the new people arrive (a real app would wait
    /// for its server instead).
    public var syncDuration = 0.8
    /// The rows shown: the people matching the search, the recent ones first (under "New").
    public private(set) var shown: [Contact] = []
    private var recentShown = 0
    /// The people shown, by id.
    private var byID: [Int: Contact] = [:]
    /// The list's rows: the people shown by id, in their sections.
    private var people: PeopleSource!
    private let bar = View()
    private let title = Label(text: "Contacts")
    /// Edit, and Done while editing: the list shows each person's delete control.
    public let editButton = Button(title: "Edit")
    private let noResults = Label(text: "No results")

    public init(book: AddressBook) {
        self.book = book
        super.init()
        backgroundColor = .white
        bar.backgroundColor = Color(rgb: 248, 248, 250)
        title.font = try? Font.system(size: 24, bold: true)
        countLabel.textColor = Color(rgb: 110, 110, 118)
        countLabel.textAlignment = .right
        searchField.onChange = { [weak self] _ in self?.search() }
        editButton.fillColor = .clear
        editButton.titleColor = .tint
        editButton.onTap = { [weak self] in self?.setEditing(!(self?.list.isEditing ?? false)) }
        for v in [title, countLabel, editButton, searchField] { bar.addSubview(v) }
        noResults.textAlignment = .center
        noResults.textColor = Color(rgb: 110, 110, 118)
        list.estimatedRowHeight = 44
        list.keyboardDismissMode = .onDrag
        list.register("person") { ListCell(reuseIdentifier: "person") }
        // By the item's id, not its row: the list may ask for rows while the model has moved
        // on ahead of the snapshot it shows.
        people = PeopleSource(list: list) { [weak self] list, _, id in
            let cell = list.dequeueReusableCell(withIdentifier: "person")
            cell.textLabel.text = self?.byID[id]?.name ?? ""
            return cell
        }
        people.titleForHeader = { $0 }
        list.onSelectRow = { [weak self] row in
            guard let self else { return }
            self.open(self.shown[row])
        }
        list.trailingSwipeActions = { [weak self] _ in
            [RowAction(title: "Delete", style: .destructive) { row in self?.delete(row: row) }]
        }
        // While editing, each person's delete control shows Delete, which deletes them.
        people.editingStyleForItem = { _ in .delete }
        people.commitEditing = { [weak self] _, id in
            guard let self, let row = self.shown.firstIndex(where: { $0.id == id }) else { return }
            self.delete(row: row)
        }
        let refresh = RefreshControl()
        refresh.onValueChanged = { [weak self] in self?.sync() }
        list.refreshControl = refresh
        footerLabel.textAlignment = .center
        footerLabel.textColor = Color(rgb: 110, 110, 118)
        footerLabel.frame = Rect(x: 0, y: 0, width: 0, height: 64)
        list.listFooterView = footerLabel
        for v in [list, noResults, bar] { addSubview(v) }
        search()
    }

    /// Puts the screen in `window`, filling it, with the on-screen keyboard over it.
    public func install(in window: Window) {
        fillsSuperview = true
        window.addSubview(self)
        OnScreenKeyboard.install(in: window, policy: .touchOnly)
        window.layoutIfNeeded()
    }

    public override func layoutSubviews() {
        let w = bounds.width
        bar.frame = Rect(x: 0, y: 0, width: w, height: Self.barHeight)
        title.frame = Rect(x: 16, y: 10, width: w - 32, height: 34)
        editButton.frame = Rect(x: w - 16 - 64, y: 10, width: 64, height: 34)
        countLabel.frame = Rect(x: 16, y: 16, width: w - 32 - 72, height: 24)
        searchField.frame = Rect(x: 12, y: 54, width: w - 24, height: 44)
        list.frame = Rect(x: 0, y: Self.barHeight, width: w, height: max(0, bounds.height - Self.barHeight))
        noResults.frame = Rect(x: 0, y: Self.barHeight + 40, width: w, height: 24)
        // A page keeps its place across the window: it may be on its way in or out.
        for page in [detail, leaving].compactMap({ $0 }) where page.bounds.size != bounds.size {
            page.bounds.size = bounds.size
            page.center.y = bounds.midY
            if page === detail, backSwipe == nil, page.animationTargets == nil { page.frame = bounds }
        }
    }

    // MARK: The list

    /// The people shown, by id: "New" for those a refresh brought, then a section per initial.
    private func snapshot() -> DataSourceSnapshot<String, Int> {
        var snapshot = DataSourceSnapshot<String, Int>()
        if recentShown > 0 {
            snapshot.appendSections([PeopleSource.recent])
            snapshot.appendItems(shown[..<recentShown].map(\.id))
        }
        for contact in shown[recentShown...] {
            if snapshot.sectionIdentifiers.last != contact.initial { snapshot.appendSections([contact.initial]) }
            snapshot.appendItems([contact.id])
        }
        return snapshot
    }

    /// A person matches the search when their name or number has it (in any case).
    private func matchesSearch(_ contact: Contact) -> Bool {
        searchField.text.isEmpty || contact.searchText.contains(searchField.text.lowercased())
    }

    /// Shows the people matching the search, from the top.
    private func search() {
        let recent = book.recent.filter(matchesSearch)
        shown = recent + book.people.filter(matchesSearch)
        recentShown = recent.count
        byID = Dictionary(uniqueKeysWithValues: shown.map { ($0.id, $0) })
        people.apply(snapshot(), animatingDifferences: false)
        people.showsIndex = searchField.text.isEmpty
        list.setContentOffset(Point(x: 0, y: -list.adjustedContentInset.top), animated: false)
        updateCounts()
    }

    private func updateCounts() {
        noResults.isHidden = !shown.isEmpty
        countLabel.text = searchField.text.isEmpty ? "\(book.count) people" : "\(shown.count) of \(book.count)"
        footerLabel.text = shown.isEmpty ? "" : shown.count == 1 ? "1 Contact" : "\(shown.count) Contacts"
    }

    /// A pull to refresh: after `syncDuration`, new people fade in at the top under "New", in
    /// view there (the list rests at its top as it refreshes, and a list at its top keeps its
    /// offset through an insertion, as UIKit's does); a list scrolled down meanwhile keeps the
    /// rows in view where they are.
    private func sync() {
        guard let window else { return }
        window.schedule(at: window.now + syncDuration) { [weak self] in
            guard let self else { return }
            let arrived = self.book.addPeople(3).reversed().filter(self.matchesSearch)
            self.shown = arrived + self.shown
            for contact in arrived { self.byID[contact.id] = contact }
            self.recentShown += arrived.count
            self.people.defaultRowAnimation = .fade
            self.people.apply(self.snapshot())
            self.updateCounts()
            self.list.refreshControl?.endRefreshing()
        }
    }

    /// Starts or ends editing the list (the Edit button, which says Done meanwhile).
    public func setEditing(_ editing: Bool) {
        list.setEditing(editing, animated: true)
        editButton.title = editing ? "Done" : "Edit"
    }

    /// Deletes the person on `row`: from the book, the rows shown, and the list, where the row
    /// fades as the rows below slide up into its place.
    public func delete(row: Int) {
        let contact = shown.remove(at: row)
        if row < recentShown { recentShown -= 1 }
        book.remove(contact)
        byID[contact.id] = nil
        people.defaultRowAnimation = .automatic
        people.apply(snapshot())
        updateCounts()
    }

    // MARK: A person's page

    /// Shows `contact`'s page, sliding in from the right edge over the list.
    public func open(_ contact: Contact) {
        guard detail == nil else { return }
        searchField.resignFocus()  // the keyboard goes with the focus
        let page = DetailPage(contact: contact)
        page.onBack = { [weak self] in self?.closeDetail() }
        let edge = ScreenEdgePanGestureRecognizer { [weak self] in self?.backSwipeChanged($0) }
        edge.edges = .left
        page.addGestureRecognizer(edge)
        detail = page
        addSubview(page)
        page.frame = bounds.offsetBy(dx: bounds.width, dy: 0)
        animate(withDuration: Self.slideDuration, curve: .easeOut) { page.frame = self.bounds }
        window?.focus(page, byTouch: false)  // so that Escape reaches this screen
    }

    /// Back to the list, the page sliding out to the right; the row tapped is no longer shown
    /// selected (as a UIKit table view controller clears its selection when it shows again).
    public func closeDetail() {
        guard let page = detail, backSwipe == nil else { return }
        animate(withDuration: Self.slideDuration, curve: .easeOut) {
            page.frame = self.bounds.offsetBy(dx: self.bounds.width, dy: 0)
        } completion: { [weak self] _ in
            self?.pageLeft(page)
        }
        pageLeaving(page)
    }

    /// The page is on its way out: no longer the one shown, touched or read.
    private func pageLeaving(_ page: DetailPage) {
        leaving?.removeFromSuperview()
        leaving = page
        page.isUserInteractionEnabled = false
        page.accessibilityElementsHidden = true
        detail = nil
        for row in list.selectedRows { list.deselectRow(row) }
        window?.focus(nil, byTouch: false)
    }

    private func pageLeft(_ page: DetailPage) {
        page.removeFromSuperview()
        if leaving === page { leaving = nil }
    }

    /// The edge swipe: the page follows the finger across (its animation scrubbed), and let go
    /// it runs on out when past halfway or thrown rightwards, else back in, on a spring that
    /// starts at the finger's speed.
    private func backSwipeChanged(_ recognizer: GestureRecognizer) {
        guard let pan = recognizer as? PanGestureRecognizer, let page = detail else { return }
        let width = max(1, bounds.width)
        switch pan.state {
        case .began:
            if let settling = backSwipe {
                // Caught on its way: from where it stands.
                settling.pauseAnimation()
                settling.isReversed = false
                backSwipeFrom = settling.fractionComplete
                return
            }
            let animator = ViewPropertyAnimator(duration: Self.slideDuration, curve: .linear, for: self) {
                page.frame = self.bounds.offsetBy(dx: width, dy: 0)
            }
            animator.addCompletion { [weak self] position in self?.backSwipeEnded(page, at: position) }
            animator.pauseAnimation()
            backSwipe = animator
            backSwipeFrom = 0
        case .changed:
            backSwipe?.fractionComplete = backSwipeFrom + pan.translation(in: self).x / width
        case .ended, .cancelled:
            guard let animator = backSwipe else { return }
            let speed = pan.state == .ended ? pan.velocity(in: self).x : 0
            let goes = speed > 300 || (speed > -300 && animator.fractionComplete > 0.5)
            animator.isReversed = !goes
            let left = max(1e-3, goes ? 1 - animator.fractionComplete : animator.fractionComplete)
            // The spring starts at the finger's speed towards the end it heads for, in ways a
            // second of the way left.
            let towards = goes ? speed : -speed
            animator.continueAnimation(withSpringDamping: 1, initialVelocity: towards / (left * width))
        default:
            break
        }
    }

    private func backSwipeEnded(_ page: DetailPage, at position: ViewPropertyAnimator.Position) {
        backSwipe = nil
        guard position == .end else { return }
        pageLeaving(page)
        pageLeft(page)
    }

    public override func handleInput(_ event: InputEvent) -> Bool {
        guard case .key(.escape, let pressed, _) = event.kind else { return false }
        if detail != nil {
            if pressed { closeDetail() }
        } else if searchField.isFocused || !searchField.text.isEmpty {
            if pressed {
                searchField.text = ""
                searchField.resignFocus()
                search()
            }
        } else {
            return false
        }
        return true
    }
}

/// A text field that says when its text changes (the list follows every keystroke).
public final class SearchField: TextField {
    public var onChange: ((String) -> Void)?

    public override func handleInput(_ event: InputEvent) -> Bool {
        let before = text
        let handled = super.handleInput(event)
        if text != before { onChange?(text) }
        return handled
    }
}

/// The list's data source: the people's snapshots, with the whole alphabet down the right
/// edge, as a phone's address book has it, while no search narrows the people down; a letter
/// with no people leads to the next that has some.
final class PeopleSource: ListDiffableDataSource<String, Int> {
    /// The section of the people a refresh brought.
    static let recent = "New"
    static let alphabet = (0..<26).map { String(UnicodeScalar(UInt8(65 + $0))) }

    var showsIndex = true {
        didSet { if showsIndex != oldValue { list?.reloadSectionIndexTitles() } }
    }

    override func sectionIndexTitles(in list: ListView) -> [String] { showsIndex ? Self.alphabet : [] }

    /// A letter leads to its people, or to the next letter that has any (the last section past
    /// the last of them).
    override func list(_ list: ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        let sections = snapshot().sectionIdentifiers
        let first = sections.first == Self.recent ? 1 : 0
        return sections.indices.dropFirst(first).first { sections[$0] >= title } ?? sections.count - 1
    }
}
