import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayViews

/// An app's windows on the accessibility bus, as AT-SPI 2 says a toolkit exposes them, so that a
/// screen reader (Orca, through libatspi) can find, read and operate them: the application
/// object at `/org/a11y/atspi/accessible/root`, embedded in the registry's desktop, and one
/// object per element of each window's `accessibilityTree()` below it, each answering
/// `org.a11y.atspi.Accessible` and, where it applies, `Component` and `Action`.
///
/// The objects are not kept: each call makes the element it asks about from its view as it is
/// then, and an element is named by its view's number (`/org/a11y/atspi/accessible/<n>`,
/// numbered as first exposed), so a list exposes the rows that have cells and a reused cell is
/// the same object with its new text. Calls are answered from the connection's `process()`, on
/// the thread that owns the windows (the main actor's).
///
/// Changes a screen reader follows are sent as AT-SPI's events: the focus and a list's
/// selection moving, the window's activation, a focused editor's text and caret (after each
/// frame), and what the views post (`AccessibilityNotification`); keys go to the registry's
/// listeners first (AtSpiBridge+Keys.swift).
@MainActor
public final class AtSpiBridge: WindowObserver {
    public let connection: DBusConnection
    /// The application's name (the desktop lists apps by it).
    public let applicationName: String
    private let windows: () -> [Window]
    private var registration: DBusRegistration?
    private var cache: DBusRegistration?
    /// The registry's coming back (`NameOwnerChanged`), to embed the application again, and
    /// the embedding call under way.
    private var registryWatch: DBusRegistration?
    private var embedding: DBusRegistration?
    private var registryLost = false
    /// The registry's desktop, the application's parent (from `Socket.Embed`).
    private var desktop: DBusValue = AtSpiBridge.null
    /// The id the registry gave the application (it sets `Application.Id`).
    private var applicationId: Int32 = 0
    /// The view that last had the focus, to say it lost it.
    private weak var lastFocused: View?
    /// The focused editor's text and caret as last told, to tell what a frame changed.
    private var lastText: (view: ObjectIdentifier, text: String, caret: Int)?
    /// The windows followed for events.
    private var observed: [WeakView] = []
    /// Views by number and numbers by view, for the objects' paths.
    private var numbers: [ObjectIdentifier: UInt64] = [:]
    private var views: [UInt64: WeakView] = [:]
    private var nextNumber: UInt64 = 1
    /// When the table of numbered views next drops the views that are gone (doubled each
    /// time from what stays): an app whose views come and go would otherwise keep an entry
    /// for each view a reader was ever told of.
    private var sweepAt = 1024
    /// The views with a number now (what the tests count).
    var numberedViews: Int { views.count }
    /// Keys asked about and not yet delivered, in the order they came.
    var pendingKeys: [PendingKey] = []
    /// Elements that came or went and are not yet told, in the order they did, and since when
    /// (window time).
    var pendingChildren: [ObjectIdentifier: PendingChild] = [:]
    var pendingOrder: [ObjectIdentifier] = []
    var pendingSince: Double?
    private var uniqueName: String?

    struct WeakView {
        weak var view: View?
    }

    static let prefix = "/org/a11y/atspi/accessible"
    static let rootPath = prefix + "/root"
    static let null = DBusValue.structure([.string(""), .objectPath("/org/a11y/atspi/null")])

    /// Serves the windows `windows()` returns on `connection` (the accessibility bus).
    public init(connection: DBusConnection, applicationName: String, windows: @escaping () -> [Window]) {
        self.connection = connection
        self.applicationName = applicationName
        self.windows = windows
    }

    /// Serves the objects and embeds the application in the registry's desktop (what makes a
    /// screen reader see it).
    public func register() throws {
        // sd-bus calls back from `process()`, which the windows' owner runs on the main actor.
        registration = try connection.serve(under: Self.prefix) { [unowned self] call in
            MainActor.assumeIsolated { self.answer(call) }
        }
        // libatspi asks every new application for its cache of objects; an empty one says "ask
        // each object" (Qt's answer).
        cache = try connection.serve(under: "/org/a11y/atspi/cache") { call in
            call.interface == "org.a11y.atspi.Cache" && call.member == "GetItems"
                ? .reply([.array(element: "((so)(so)(so)iiassusau)", [])]) : .unhandled
        }
        // A registry that restarts (it crashed, or the session restarted it) knows no
        // application until each embeds itself again, as at-spi2-core's bridge does: without
        // it the app stayed off the desktop until it was restarted.
        registryWatch = try connection.watch(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"
        ) { [unowned self] signal in
            guard signal.arguments.count == 3, signal.arguments[0].stringValue == "org.a11y.atspi.Registry",
                let old = signal.arguments[1].stringValue, let new = signal.arguments[2].stringValue
            else { return }
            MainActor.assumeIsolated {
                // Only a registry that went away and came back, or was replaced: the first
                // start (which the Embed below can cause) already has the application.
                if !old.isEmpty && new.isEmpty { self.registryLost = true }
                if !new.isEmpty && (self.registryLost || !old.isEmpty) {
                    self.registryLost = false
                    self.embedAgain()
                }
            }
        }
        let reply = try connection.call(
            "org.a11y.atspi.Registry", path: Self.rootPath, interface: "org.a11y.atspi.Socket", member: "Embed",
            arguments: [.structure([.string(try busName), .objectPath(Self.rootPath)])])
        if let desktop = reply.first { self.desktop = desktop }
        for window in windows() {
            window.addObserver(self)
            observed.append(WeakView(view: window))
            lastFocused = window.focusedView
        }
    }

    /// Embeds the application in a registry that came back, without waiting for its answer
    /// (the loop that runs this also serves the registry's questions about the application).
    private func embedAgain() {
        guard registration != nil, let name = try? busName else { return }
        embedding = try? connection.callWithoutWaiting(
            "org.a11y.atspi.Registry", path: Self.rootPath, interface: "org.a11y.atspi.Socket", member: "Embed",
            arguments: [.structure([.string(name), .objectPath(Self.rootPath)])]
        ) { [weak self] result in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.embedding = nil
                if case .success(let reply) = result, let desktop = reply.first { self.desktop = desktop }
            }
        }
    }

    /// Whether the objects are served (between `register` and `unregister`).
    public var isRegistered: Bool { registration != nil }

    /// Stops serving (the registry drops the application when the connection closes); keys
    /// waiting for a reader's answer go to the window.
    public func unregister() {
        deliverWaitingKeys()
        for case let window as Window in observed.compactMap(\.view) { window.removeObserver(self) }
        observed = []
        registration?.cancel()
        cache?.cancel()
        registryWatch?.cancel()
        embedding?.cancel()
        registration = nil
        cache = nil
        registryWatch = nil
        embedding = nil
    }

    // MARK: Events

    /// The focus moved: `state-changed:focused` off the view that had it, the list's selection
    /// events when rows are involved, then `state-changed:focused` on the new one (what Orca
    /// reads).
    public func window(_ window: Window, focusDidChangeTo view: View?, byTouch: Bool) {
        let old = lastFocused
        lastFocused = view
        if let old, old !== view { stateChanged("focused", false, on: old) }
        selectionMoved(from: old === view ? nil : old, to: view, in: window)
        if let view { stateChanged("focused", true, on: view) }
    }

    /// `window:activate` or `window:deactivate`, and the frame's `active` state, as the window
    /// gets or loses the keyboard: Orca reads only the active window.
    public func window(_ window: Window, keyWindowDidChange isKey: Bool) {
        let title = window.accessibilityLabel ?? window.name ?? ""
        event(
            isKey ? "Activate" : "Deactivate", from: window, data: .string(title),
            interface: "org.a11y.atspi.Event.Window")
        stateChanged("active", isKey, on: window)
    }

    /// After each frame, the focused editor's changes: `object:text-changed:delete` and
    /// `:insert` for what its text lost and gained (the common start and end kept), then
    /// `object:text-caret-moved` where its caret went, in code points.
    public func window(_ window: Window, didPrepareFrameAt time: Double) {
        flushChildrenIfSettled(window, at: time)
        guard let view = window.focusedView, let editor = view as? (any TextEditingView) else {
            lastText = nil
            return
        }
        let text = editor.editing.text
        let caret = Self.scalar(atCharacter: editor.editing.caret, in: text)
        defer { lastText = (ObjectIdentifier(view), text, caret) }
        guard let last = lastText, last.view == ObjectIdentifier(view) else { return }
        let changed = Self.differ(last.text, text)
        if changed { textChanged(on: view, from: last.text, to: text) }
        if last.caret != caret || changed {
            event("TextCaretMoved", from: view, caret)
        }
    }

    /// Whether two texts differ in any code point. `String`'s `!=` compares canonical
    /// equivalence: "é" replaced by "e" and a combining acute is equal to it, though a reader's
    /// copy of the text and its offsets (code points) are not, so no change was told.
    static func differ(_ a: String, _ b: String) -> Bool {
        a.utf8.count != b.utf8.count || a != b || !a.utf8.elementsEqual(b.utf8)
    }

    /// `object:text-changed:delete` and `:insert` for what `old` lost and `new` gained (the
    /// common start and end kept), in code points.
    func textChanged(on view: View, from old: String, to new: String) {
        let old = Array(old.unicodeScalars)
        let new = Array(new.unicodeScalars)
        var start = 0
        while start < old.count && start < new.count && old[start] == new[start] { start += 1 }
        var end = 0
        while end < old.count - start && end < new.count - start && old[old.count - 1 - end] == new[new.count - 1 - end]
        {
            end += 1
        }
        func string(_ s: ArraySlice<Unicode.Scalar>) -> String { String(String.UnicodeScalarView(s)) }
        if old.count - end > start {
            textChanged("delete", at: start, string(old[start..<(old.count - end)]), on: view)
        }
        if new.count - end > start {
            textChanged("insert", at: start, string(new[start..<(new.count - end)]), on: view)
        }
    }

    private func textChanged(_ kind: String, at start: Int, _ text: String, on view: View) {
        event("TextChanged", from: view, detail: kind, start, text.unicodeScalars.count, data: .string(text))
    }

    /// `object:state-changed:<state>` from `view`'s object: libatspi keeps a reader's copy of
    /// an object's states up to date from these, and Orca reads what takes the focus.
    func stateChanged(_ state: String, _ on: Bool, on view: View) {
        event("StateChanged", from: view, detail: state, on ? 1 : 0, data: .string("0"))
    }

    /// An event signal from `view`'s object, in the one shape AT-SPI's events have
    /// (`siiva{sv}`: a detail, two numbers, any data, and an empty set of properties); a bus
    /// that fails to take it is not the app's failure.
    func event(
        _ member: String, from view: View, detail: String = "", _ detail1: Int = 0, _ detail2: Int = 0,
        data: DBusValue = .string(""), interface: String = "org.a11y.atspi.Event.Object"
    ) {
        guard registration != nil else { return }
        // Children held back go first: events keep the order things happened in.
        if member != "ChildrenChanged", !pendingOrder.isEmpty { flushChildren() }
        do {
            try connection.emit(
                path: path(of: view), interface: interface, member: member,
                arguments: [
                    .string(detail), .int32(Int32(clamping: detail1)), .int32(Int32(clamping: detail2)),
                    .variant(data), .array(element: "{sv}", []),
                ])
        } catch {
            // The next call from a reader, or the platform's loop, finds the bus gone.
        }
    }

    // MARK: Objects

    /// An object: the application, or an element of a window with its children (and theirs:
    /// a list's rows with their states), its parent's reference and, when asked, its index
    /// among its parent's children.
    enum Object {
        case application
        case element(AccessibilityNode, parent: DBusValue, index: () -> Int)
    }

    func reference(_ view: View) throws -> DBusValue {
        .structure([.string(try busName), .objectPath(path(of: view))])
    }

    var applicationReference: DBusValue {
        get throws { .structure([.string(try busName), .objectPath(Self.rootPath)]) }
    }

    /// The connection's unique name, asked once (every reference names it).
    var busName: String {
        get throws {
            if let uniqueName { return uniqueName }
            let name = try connection.uniqueName
            uniqueName = name
            return name
        }
    }

    public func path(of view: View) -> String {
        let key = ObjectIdentifier(view)
        if let n = numbers[key], views[n]?.view === view { return "\(Self.prefix)/\(n)" }
        if views.count >= sweepAt { sweepGoneViews() }
        let n = nextNumber
        nextNumber += 1
        numbers[key] = n
        views[n] = WeakView(view: view)
        return "\(Self.prefix)/\(n)"
    }

    /// Drops the numbers of views that are gone. A number is never given again, so a reader
    /// that asks about a gone view's path still hears that there is no such object; the views
    /// that live keep theirs.
    private func sweepGoneViews() {
        views = views.filter { $0.value.view != nil }
        numbers = numbers.filter { views[$0.value] != nil }
        sweepAt = max(1024, 2 * views.count)
    }

    /// The object at `path` now: its view's node, made alone (a reader asks about one element
    /// at a time; making the whole window's tree for each call would cost a frame's worth).
    func object(at path: String) throws -> Object? {
        if path == Self.rootPath { return .application }
        guard path.hasPrefix(Self.prefix + "/"), let n = UInt64(path.dropFirst(Self.prefix.count + 1)),
            let view = views[n]?.view
        else { return nil }
        let windows = windows()
        if let i = windows.firstIndex(where: { $0 === view }) {
            return .element(windows[i].accessibilityTree(depth: 1), parent: try applicationReference, index: { i })
        }
        guard let window = view.window, windows.contains(where: { $0 === window }),
            let node = view.accessibilityNode(in: window, depth: 1),
            let parent = view.superview?.accessibilityElementAncestor(in: window)
        else { return nil }
        return .element(
            node, parent: try reference(parent),
            index: { parent.accessibilityIndex(ofChild: view, in: window) })
    }

    // MARK: Answers

    func answer(_ call: DBusCall) -> DBusAnswer {
        do {
            guard let object = try object(at: call.path) else {
                return .error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no object at \(call.path)")
            }
            switch call.interface {
            case "org.freedesktop.DBus.Properties": return try properties(call, object)
            case "org.a11y.atspi.Accessible": return try accessible(call, object)
            case "org.a11y.atspi.Application": return application(call)
            case "org.a11y.atspi.Component": return try component(call, object)
            case "org.a11y.atspi.Action": return action(call, object)
            case "org.a11y.atspi.Selection": return try selection(call, object)
            case "org.a11y.atspi.Text": return text(call, object)
            case "org.a11y.atspi.EditableText": return editableText(call, object)
            default: return .unhandled
            }
        } catch {
            return .error(name: "org.freedesktop.DBus.Error.Failed", message: "\(error)")
        }
    }

    private func children(_ object: Object) -> [View] {
        switch object {
        case .application: return windows()
        case .element(let node, _, _): return node.children.map(\.view)
        }
    }

    private func interfaces(_ object: Object) -> [String] {
        switch object {
        case .application: return ["org.a11y.atspi.Accessible", "org.a11y.atspi.Application"]
        case .element(let node, _, _):
            var names = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"]
            if !AtSpiRoles.actions(node).isEmpty { names.append("org.a11y.atspi.Action") }
            if node.role == .list { names.append("org.a11y.atspi.Selection") }
            if Self.readable(node) != nil { names.append("org.a11y.atspi.Text") }
            if Self.editor(node) != nil { names.append("org.a11y.atspi.EditableText") }
            if node.value != nil { names.append("org.a11y.atspi.Value") }
            return names
        }
    }

    private func accessible(_ call: DBusCall, _ object: Object) throws -> DBusAnswer {
        let kids = children(object)
        switch call.member {
        case "GetChildren": return .reply([.array(element: "(so)", try kids.map { try reference($0) })])
        case "GetChildAtIndex":
            guard let i = call.int32(at: 0) else { return invalid(call) }
            return .reply([kids.indices.contains(i) ? try reference(kids[i]) : Self.null])
        case "GetIndexInParent":
            if case .element(_, _, let index) = object { return .reply([.int32(Int32(clamping: index()))]) }
            return .reply([.int32(-1)])
        case "GetRole": return .reply([.uint32(AtSpiRoles.role(object))])
        case "GetRoleName", "GetLocalizedRoleName": return .reply([.string(AtSpiRoles.roleName(object))])
        case "GetState": return .reply([.array(element: "u", AtSpiRoles.states(object).map(DBusValue.uint32))])
        case "GetAttributes":
            var attributes = [DBusValue.dictEntry(.string("toolkit"), .string("Scrollway"))]
            if case .element(let node, _, _) = object, let position = node.position {
                attributes.append(.dictEntry(.string("posinset"), .string("\(position.index)")))
                attributes.append(.dictEntry(.string("setsize"), .string("\(position.count)")))
            }
            if case .element(let node, _, _) = object, let level = node.view.accessibilityLevel {
                attributes.append(.dictEntry(.string("level"), .string("\(level)")))
            }
            // An editor's placeholder, as GTK 4 gives it: read while the field is empty, where
            // the field's name is what its label says.
            if case .element(let node, _, _) = object, let placeholder = Self.editor(node)?.placeholder,
                !placeholder.isEmpty
            {
                attributes.append(.dictEntry(.string("placeholder-text"), .string(placeholder)))
            }
            return .reply([.array(element: "{ss}", attributes)])
        case "GetApplication": return .reply([try applicationReference])
        case "GetInterfaces": return .reply([.array(element: "s", interfaces(object).map(DBusValue.string))])
        case "GetRelationSet": return .reply([.array(element: "(ua(so))", [])])
        default: return .unhandled
        }
    }

    private func property(_ interface: String, _ name: String, _ object: Object) throws -> DBusValue? {
        switch (interface, name) {
        case ("org.a11y.atspi.Accessible", "Name"):
            if case .element(let node, _, _) = object { return .string(node.label) }
            return .string(applicationName)
        case ("org.a11y.atspi.Accessible", "Description"), ("org.a11y.atspi.Accessible", "HelpText"):
            if case .element(let node, _, _) = object { return .string(node.hint) }
            return .string("")
        case ("org.a11y.atspi.Accessible", "Parent"):
            if case .element(_, let parent, _) = object { return parent }
            return desktop
        case ("org.a11y.atspi.Accessible", "ChildCount"): return .int32(Int32(clamping: children(object).count))
        case ("org.a11y.atspi.Accessible", "Locale"): return .string("C")
        case ("org.a11y.atspi.Accessible", "AccessibleId"):
            if case .element(let node, _, _) = object { return .string(node.view.name ?? "") }
            return .string("")
        case ("org.a11y.atspi.Application", "ToolkitName"): return .string("Scrollway")
        case ("org.a11y.atspi.Application", "Version"), ("org.a11y.atspi.Application", "ToolkitVersion"):
            return .string(ScrollwayVersion.string)
        case ("org.a11y.atspi.Application", "AtspiVersion"): return .string("2.1")
        case ("org.a11y.atspi.Application", "InterfaceVersion"): return .uint32(0)
        case ("org.a11y.atspi.Application", "Id"): return .int32(applicationId)
        case ("org.a11y.atspi.Text", _): return textProperty(name, object)
        case ("org.a11y.atspi.Action", "NActions"):
            if case .element(let node, _, _) = object { return .int32(Int32(clamping: AtSpiRoles.actions(node).count)) }
            return .int32(0)
        case ("org.a11y.atspi.Value", _):
            guard case .element(let node, _, _) = object, let value = node.value else { return nil }
            switch name {
            case "MinimumValue": return .double(value.minimum)
            case "MaximumValue": return .double(value.maximum)
            case "MinimumIncrement": return .double(value.step)
            case "CurrentValue": return .double(value.current)
            case "Text": return .string(value.text)
            default: return nil
            }
        case ("org.a11y.atspi.Selection", "NSelectedChildren"):
            if case .element(let node, _, _) = object, node.role == .list {
                return .int32(Int32(clamping: node.children.count(where: { $0.states.contains(.selected) })))
            }
            return nil
        default: return nil
        }
    }

    /// What `GetAll` gives for each interface (an unknown one: Accessible's).
    static let propertyNames = [
        "org.a11y.atspi.Accessible": [
            "Name", "Description", "HelpText", "Parent", "ChildCount", "Locale", "AccessibleId",
        ],
        "org.a11y.atspi.Application": [
            "ToolkitName", "Version", "ToolkitVersion", "AtspiVersion", "InterfaceVersion", "Id",
        ],
        "org.a11y.atspi.Action": ["NActions"],
        "org.a11y.atspi.Text": ["CharacterCount", "CaretOffset"],
        "org.a11y.atspi.Selection": ["NSelectedChildren"],
        "org.a11y.atspi.Value": ["MinimumValue", "MaximumValue", "MinimumIncrement", "CurrentValue", "Text"],
    ]

    private func properties(_ call: DBusCall, _ object: Object) throws -> DBusAnswer {
        switch call.member {
        case "Get":
            guard call.arguments.count == 2, let interface = call.arguments[0].stringValue,
                let name = call.arguments[1].stringValue
            else { return invalid(call) }
            guard let value = try property(interface, name, object) else {
                return .error(
                    name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property \(interface).\(name)")
            }
            return .reply([.variant(value)])
        case "GetAll":
            guard let interface = call.arguments.first?.stringValue else { return invalid(call) }
            let names = Self.propertyNames[interface] ?? Self.propertyNames["org.a11y.atspi.Accessible"]!
            let entries = try names.compactMap { name in
                try property(interface, name, object).map { DBusValue.dictEntry(.string(name), .variant($0)) }
            }
            return .reply([.array(element: "{sv}", entries)])
        case "Set":
            // A reader sets an adjustable element's value (a slider's), as a number of any of
            // D-Bus's numeric types; the view brings it into its range. One it refuses (a
            // progress bar's, a disabled control's, a number that is not finite) is answered
            // as done and left as it was, as GTK 4 answers for widgets the user cannot set:
            // libatspi 2.46 unrefs a null reply on an error answer to a Set, which libdbus
            // treats as fatal, and the reader (Orca, through pyatspi) aborts. The reader reads
            // the value back and hears it unchanged.
            if case .element(let node, _, _) = object, node.value != nil, call.arguments.count == 3,
                call.arguments[0].stringValue == "org.a11y.atspi.Value", call.arguments[1].stringValue == "CurrentValue"
            {
                if case .variant(let v) = call.arguments[2], let number = v.doubleValue, number.isFinite,
                    node.states.contains(.enabled)
                {
                    _ = node.view.accessibilitySetValue(number)
                }
                return .reply([])
            }
            // The registry sets the application's id once it is embedded: only that property of
            // that interface on the application's object; everything else is read-only.
            guard case .application = object, call.arguments.count == 3,
                call.arguments[0].stringValue == "org.a11y.atspi.Application", call.arguments[1].stringValue == "Id",
                case .variant(.int32(let id)) = call.arguments[2]
            else { return .error(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "read-only") }
            applicationId = id
            return .reply([])
        default: return .unhandled
        }
    }

    private func application(_ call: DBusCall) -> DBusAnswer {
        switch call.member {
        // An empty address: stay on the bus rather than a peer-to-peer connection.
        case "GetApplicationBusAddress": .reply([.string("")])
        case "GetLocale": .reply([.string("C")])
        default: .unhandled
        }
    }

    private func component(_ call: DBusCall, _ object: Object) throws -> DBusAnswer {
        guard case .element(let node, _, _) = object else { return .unhandled }
        /// A point's arguments (x, y and the coordinate type after them) in window coordinates.
        func point() -> Point? {
            guard call.arguments.count == 3, let px = call.int32(at: 0), let py = call.int32(at: 1),
                case .uint32(let type) = call.arguments[2]
            else { return nil }
            let origin = Self.origin(ofCoordinates: type, for: node)
            return Point(x: Double(px) + origin.x, y: Double(py) + origin.y)
        }
        let type: UInt32? = if case .uint32(let t)? = call.arguments.first { t } else { nil }
        switch call.member {
        case "GetExtents": return .reply([.structure(Self.rectangle(node.frame, inCoordinates: type, for: node))])
        case "GetPosition": return .reply(Array(Self.rectangle(node.frame, inCoordinates: type, for: node).prefix(2)))
        case "GetSize": return .reply(Array(Self.rectangle(node.frame, inCoordinates: nil, for: node).suffix(2)))
        case "GetLayer": return .reply([.uint32(3)])  // WIDGET
        case "GetMDIZOrder": return .reply([.int32(0)])
        case "GetAlpha": return .reply([.double(1)])
        case "Contains":
            guard let p = point() else { return invalid(call) }
            return .reply([.bool(node.frame.contains(p))])
        case "GetAccessibleAtPoint":
            guard let p = point() else { return invalid(call) }
            guard let found = Self.deepestElement(at: p, in: node) else { return .reply([Self.null]) }
            return .reply([try reference(found)])
        case "ScrollTo", "ScrollToPoint":
            // Any of AT-SPI's scroll types brings the whole element into sight.
            return .reply([.bool(node.view.accessibilityScrollToVisible(node.view.bounds))])
        case "GrabFocus":
            guard node.view.canBecomeFocused else { return .reply([.bool(false)]) }
            node.view.becomeFocused()
            return .reply([.bool(node.view.isFocused)])
        default: return .unhandled
        }
    }

    /// Where AT-SPI's coordinates of `type` start, in window coordinates: the parent element's
    /// top-left for parent coordinates (type 2), else the window's. On Wayland a client cannot
    /// know where its window is on screen, so screen coordinates are the window's too (as GTK
    /// answers).
    static func origin(ofCoordinates type: UInt32?, for node: AccessibilityNode) -> Point {
        type == 2 ? parentOrigin(of: node) : .zero
    }

    /// `r` (window coordinates) in the coordinates of `type`, in AT-SPI's whole pixels: x, y,
    /// width, height.
    static func rectangle(_ r: Rect, inCoordinates type: UInt32?, for node: AccessibilityNode) -> [DBusValue] {
        let origin = origin(ofCoordinates: type, for: node)
        let shifted = r.offsetBy(dx: -origin.x, dy: -origin.y)
        return [shifted.minX, shifted.minY, shifted.width, shifted.height].map {
            .int32(Int32(clamping: $0, rounding: .toNearestOrAwayFromZero))
        }
    }

    /// The top-left of the element `node`'s parent element, in window coordinates (the
    /// window's is 0, 0).
    static func parentOrigin(of node: AccessibilityNode) -> Point {
        guard let window = node.view.window, node.view !== window,
            let parent = node.view.superview?.accessibilityElementAncestor(in: window), parent !== window
        else { return .zero }
        return parent.convert(parent.bounds, to: nil).origin
    }

    /// The innermost element under `p` (window coordinates) among `node`'s descendants, the
    /// last drawn where they overlap (what a pointer over it would reach); nil when none is
    /// under it.
    static func deepestElement(at p: Point, in node: AccessibilityNode) -> View? {
        guard let window = node.view.window ?? (node.view as? Window) else { return nil }
        var found: View?
        var current = node
        while let child = current.children.last(where: { $0.frame.contains(p) }) {
            found = child.view
            guard let next = child.view.accessibilityNode(in: window, depth: 1) else { break }
            current = next
        }
        return found
    }

    private func action(_ call: DBusCall, _ object: Object) -> DBusAnswer {
        guard case .element(let node, _, _) = object else { return .unhandled }
        let actions = AtSpiRoles.actions(node)
        guard !actions.isEmpty else { return .unhandled }
        func indexed(_ body: (AtSpiRoles.Action) -> DBusValue) -> DBusAnswer {
            guard let i = call.int32(at: 0) else { return invalid(call) }
            return actions.indices.contains(i) ? .reply([body(actions[i])]) : .reply([.string("")])
        }
        switch call.member {
        case "GetName", "GetLocalizedName": return indexed { .string($0.name) }
        case "GetDescription": return indexed { .string($0.description) }
        case "GetKeyBinding": return indexed { _ in .string("") }
        case "GetActions":
            return .reply([
                .array(
                    element: "(sss)",
                    actions.map { .structure([.string($0.name), .string($0.description), .string("")]) })
            ])
        case "DoAction":
            guard let i = call.int32(at: 0) else { return invalid(call) }
            // A disabled control does nothing, as a tap on it does nothing.
            guard node.states.contains(.enabled) else { return .reply([.bool(false)]) }
            return .reply([.bool(actions.indices.contains(i) && actions[i].perform())])
        default: return .unhandled
        }
    }

    func invalid(_ call: DBusCall) -> DBusAnswer {
        .error(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "\(call.interface).\(call.member): unexpected arguments \(call.arguments.map(\.signature))")
    }
}
