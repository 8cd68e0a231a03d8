import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayViews

/// An on-screen keyboard for touch panels and kiosks, drawn by us: QWERTY with shift, a
/// numbers/symbols page, backspace, return, space and a hide key. It slides in and out with the
/// ω = 14 spring and types through the window's text path, exactly like a physical keyboard.
///
/// It also keeps every scroll view clear of it: `obscured = max(0, min(scroll view bottom in
/// window, window bottom) − keyboard top)` joins the bottom of the adjusted inset (and so the
/// indicator insets), and
/// once it is up the focused field, expanded by 12 px, is scrolled into view.
public final class OnScreenKeyboard: View, FrameAnimation, WindowObserver, OnScreenKeyboardRole {
    /// When it shows itself.
    public enum Policy: String, Sendable, CaseIterable {
        /// Only by `show()` (or a script's keyboard.show).
        case never
        /// When a text field gains focus by touch.
        case touchOnly
        /// When a text field gains focus at all.
        case always
        /// As `touchOnly`, unless the platform has a system input method
        /// (`Window.hasSystemInputMethod`: the compositor offers zwp_text_input_v3, as Phosh
        /// with squeekboard does): then the system keyboard types and this one stays down.
        case systemWhenAvailable
    }

    public static let height = 238.0
    /// Fonts for titles too wide for their keys at the standard size, by size (`fitTitles`).
    private var titleFonts: [Double: Font] = [:]
    static let rowHeight = 52.0
    static let gap = 6.0
    /// A key's corner radius, which also keeps its title clear of the rounded ends.
    static let keyCornerRadius = 5.0
    /// The margin kept between the focused field and the keyboard (the scroll view's own
    /// margin for a view it shows because it gained focus).
    public static let fieldMargin = ScrollView.focusMargin
    static let insetKey = ScrollView.InsetContributionKey.keyboard

    public var policy: Policy
    /// 0 (hidden) … 1 (fully up); its spring runs in window time.
    public private(set) var visibleFraction = 0.0
    private var spring: Spring?
    private var springStart = 0.0
    private var target = 0.0
    private var shifted = false { didSet { relabel() } }
    private var symbols = false { didSet { buildKeys() } }
    private var keys: [(button: Button, action: Action)] = []
    private var draggedFraction: Double?

    enum Action: Equatable {
        case text(String), shift, backspace, enter, space, symbols, hide
    }

    /// Installs a keyboard in `window` (on top of everything).
    @discardableResult
    public static func install(in window: Window, policy: Policy = .touchOnly) -> OnScreenKeyboard {
        let k = OnScreenKeyboard(policy: policy)
        window.addSubview(k)
        window.addObserver(k)
        k.layoutForWindow()
        return k
    }

    init(policy: Policy) {
        self.policy = policy
        super.init()
        name = "keyboard"
        // A screen reader finds its keys in a group of this name while it shows.
        accessibilityLabel = "Keyboard"
        backgroundColor = Color(rgb: 208, 211, 218)
        buildKeys()
    }

    /// The keyboard's top edge in window coordinates.
    public var top: Double { (window?.bounds.height ?? 0) - visibleFraction * Self.height }

    public var isShown: Bool { target == 1 }

    public func show() { animate(to: 1) }

    public func hide() { animate(to: 0) }

    // MARK: Focus

    /// Shows for a text field focused as the policy says, and hides when focus goes.
    public func window(_ window: Window, focusDidChangeTo view: View?, byTouch: Bool) {
        if view is TextInputClient {
            let touchShows = policy == .touchOnly || (policy == .systemWhenAvailable && !window.hasSystemInputMethod)
            if policy == .always || (touchShows && byTouch) { show() }
            if visibleFraction >= 1 { scrollFocusedFieldIntoView() }
        } else if view == nil {
            hide()
        }
    }

    /// While up, a frame that moved scroll views inside others (the form scrolling a text view
    /// above the keyboard) changes what the keyboard covers of them: their insets follow, so a
    /// text view keeps its caret above the keyboard, not above where it covered it before.
    public func window(_ window: Window, didPrepareFrameAt time: Double) {
        if visibleFraction > 0 { updateInsets() }
    }

    // MARK: Motion

    private func animate(to value: Double) {
        guard value != target || spring == nil && visibleFraction != value else { return }
        target = value
        let t = window?.now ?? 0
        let v = spring.map { $0.velocity(at: t - springStart) } ?? 0
        spring = Spring(from: visibleFraction, to: value, velocity: v, omega: Spring.animationOmega)
        springStart = t
        window?.addAnimation(self)
    }

    public func advance(to time: Double) -> Bool {
        guard let s = spring else { return false }
        let dt = time - springStart
        // Settled within a device pixel of travel.
        if abs(s.displacement(at: dt)) * Self.height < 0.5 && abs(s.velocity(at: dt)) * Self.height < 7 {
            spring = nil
            setFraction(s.rest)
            if s.rest == 1 { scrollFocusedFieldIntoView() }
            return false
        }
        setFraction(min(1, max(0, s.position(at: dt))))
        return true
    }

    private func setFraction(_ f: Double) {
        visibleFraction = f
        layoutForWindow()
    }

    /// Where the keyboard stands in `window` at its visible fraction: across the bottom.
    private func placement(in window: Window) -> Rect {
        Rect(
            x: 0, y: window.bounds.height - visibleFraction * Self.height, width: window.bounds.width,
            height: Self.height)
    }

    /// Places the keyboard at the bottom and updates every scroll view's keyboard inset.
    func layoutForWindow() {
        guard let window else { return }
        frame = placement(in: window)
        isHidden = visibleFraction <= 0
        window.bringSubviewToFront(self)
        updateInsets()
    }

    /// Sets every scroll view's keyboard inset to what the keyboard covers of it now.
    func updateInsets() {
        guard let window else { return }
        let keyboardTop = top
        var stack: [View] = window.subviews.filter { $0 !== self }
        while let v = stack.popLast() {
            if let s = v as? ScrollView {
                // Only what shows can be covered: a scroll view reaching below the window (a
                // text view further down a form) is not covered there, nor at all while the
                // keyboard is down.
                let bottom = min(s.convert(Point(x: 0, y: s.bounds.maxY), to: nil).y, window.bounds.height)
                let obscured = max(0, bottom - keyboardTop)
                s.setInsetContribution(EdgeInsets(top: 0, left: 0, bottom: obscured, right: 0), for: Self.insetKey)
            }
            stack += v.subviews
        }
    }

    public override func layoutSubviews() {
        layoutKeys()
    }

    /// A window resized while the keyboard is up (or on its way): it stays across the bottom, as
    /// wide as the window, with the scroll views' insets to match, from the first frame at the
    /// new size. (A resize lays out the views whose bounds it changes; the keyboard stands in
    /// the window by a frame of its own, which it places.)
    public func window(_ window: Window, willPrepareFrameAt time: Double) {
        guard window === self.window, visibleFraction > 0 else { return }
        // Within a hundredth of a pixel: a frame set comes back through the view's centre.
        let p = placement(in: window)
        if abs(frame.minY - p.minY) > 0.01 || abs(frame.width - p.width) > 0.01 { layoutForWindow() }
    }

    /// Scrolls the focused field, expanded by 12 px, into its scroll view's visible area.
    func scrollFocusedFieldIntoView() {
        guard let field = window?.focusedView, field is TextInputClient else { return }
        var v = field.superview
        while let current = v, !(current is ScrollView) { v = current.superview }
        (v as? ScrollView)?.scrollToShowFocused(field)
    }

    // MARK: Interactive dismissal

    /// Follows a finger dragging down over it, and on release dismisses or returns.
    public func window(_ window: Window, interactiveKeyboardDragAt fingerY: Double?) {
        guard window === self.window, isShown || draggedFraction != nil else { return }
        guard let y = fingerY else {
            // Released: more than half pulled down dismisses (focus goes), else it returns.
            if let f = draggedFraction {
                draggedFraction = nil
                if f < 0.5 {
                    window.focus(nil, byTouch: false)
                    hide()
                } else {
                    animate(to: 1)
                }
            }
            return
        }
        let shownTop = window.bounds.height - Self.height
        guard y > shownTop || draggedFraction != nil else { return }
        let f = min(1, max(0, (window.bounds.height - y) / Self.height))
        draggedFraction = f
        spring = nil
        setFraction(f)
    }

    // MARK: Keys

    private static let letterRows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
    private static let symbolRows = ["1234567890", "-/:;()$&@\"", ".,?!'"]

    private func buildKeys() {
        for k in keys { k.button.removeFromSuperview() }
        keys = []
        let rows = symbols ? Self.symbolRows : Self.letterRows
        for row in rows.prefix(2) { for ch in row { addKey(String(ch), .text(String(ch))) } }
        addKey(symbols ? "" : "\u{21E7}", .shift)
        for ch in rows[2] { addKey(String(ch), .text(String(ch))) }
        addKey("\u{232B}", .backspace)
        addKey(symbols ? "ABC" : "123", .symbols)
        addKey("\u{2304}", .hide)
        addKey("space", .space)
        addKey("return", .enter)
        relabel()
        setNeedsLayout()
    }

    private func addKey(_ title: String, _ action: Action) {
        let b = Button(title: title)
        b.fillColor = action.isCharacter ? .white : Color(rgb: 172, 178, 190)
        b.titleColor = .black
        b.cornerRadius = Self.keyCornerRadius
        b.canBecomeFocused = false  // its keys are for fingers; Tab stays in the app
        b.onTap = { [weak self] in self?.press(action) }
        // A screen reader says what a key does where its title is a symbol.
        switch action {
        case .shift: b.accessibilityLabel = "Shift"
        case .backspace: b.accessibilityLabel = "Delete"
        case .symbols: b.accessibilityLabel = symbols ? "Letters" : "Numbers and symbols"
        case .hide: b.accessibilityLabel = "Hide keyboard"
        case .space: b.accessibilityLabel = "Space"
        case .enter: b.accessibilityLabel = "Return"
        default: break
        }
        addSubview(b)
        keys.append((b, action))
    }

    private func relabel() {
        for (b, a) in keys {
            if case .text(let s) = a { b.title = shifted ? s.uppercased() : s }
            if a == .shift { b.fillColor = shifted ? .white : Color(rgb: 172, 178, 190) }
        }
        fitTitles()
    }

    /// Each key's title at the standard size where it fits between the key's rounded ends, else
    /// at the largest half-pixel size that does: in a narrow window (a 320 px phone's "123" and
    /// "return", a 280 px one's "m") a title is never cut to an ellipsis or left blank.
    private func fitTitles() {
        guard let standard = Font.standard else { return }
        for (b, _) in keys {
            let room = b.frame.width - 2 * b.cornerRadius
            let width = standard.width(of: b.title)
            var font: Font?
            if width > room, width > 0, room > 0 {
                // From the proportional size down by half pixels: glyph advances round, so a
                // title does not shrink exactly with its size.
                var size = max(6, (standard.size * room / width * 2).rounded(.down) / 2)
                while true {
                    if titleFonts[size] == nil { titleFonts[size] = try? Font.system(size: size) }
                    font = titleFonts[size]
                    guard size > 6, let f = font, f.width(of: b.title) > room else { break }
                    size -= 0.5
                }
            }
            if b.font !== font { b.font = font }
        }
    }

    private func layoutKeys() {
        let w = bounds.width
        let g = Self.gap
        let h = Self.rowHeight
        let unit = (w - g * 11) / 10
        var index = 0
        func place(_ count: Int, row: Int, width: Double, startX: Double) {
            for i in 0..<count {
                keys[index].button.frame = Rect(
                    x: startX + Double(i) * (width + g), y: g + Double(row) * (h + g), width: width, height: h)
                index += 1
            }
        }
        let rows = symbols ? Self.symbolRows : Self.letterRows
        place(rows[0].count, row: 0, width: unit, startX: g)
        let second = Double(rows[1].count)
        place(rows[1].count, row: 1, width: unit, startX: (w - second * unit - (second - 1) * g) / 2)
        // Shift, the third row's keys, backspace.
        let wide = unit * 1.4
        keys[index].button.frame = Rect(x: g, y: g + 2 * (h + g), width: wide, height: h)
        index += 1
        let third = Double(rows[2].count)
        place(rows[2].count, row: 2, width: unit, startX: (w - third * unit - (third - 1) * g) / 2)
        keys[index].button.frame = Rect(x: w - g - wide, y: g + 2 * (h + g), width: wide, height: h)
        index += 1
        // 123, hide, space, return.
        let y3 = g + 3 * (h + g)
        // 123 (or ABC) as wide as its title needs at the standard size, up to 1.8 keys.
        let ends = 2 * Self.keyCornerRadius + 4
        let sym = max(wide, min(unit * 1.8, (Font.standard?.width(of: symbols ? "ABC" : "123") ?? 0) + ends))
        keys[index].button.frame = Rect(x: g, y: y3, width: sym, height: h)
        keys[index + 1].button.frame = Rect(x: g * 2 + sym, y: y3, width: unit, height: h)
        // Return as wide as its title needs at the standard size, up to 2.6 keys (a narrow
        // window's space bar gives it room, as a phone's does).
        let ret = max(unit * 2, min(unit * 2.6, (Font.standard?.width(of: "return") ?? 0) + ends))
        let spaceX = g * 3 + sym + unit
        keys[index + 2].button.frame = Rect(x: spaceX, y: y3, width: w - spaceX - ret - 2 * g, height: h)
        keys[index + 3].button.frame = Rect(x: w - g - ret, y: y3, width: ret, height: h)
        fitTitles()
    }

    /// The keys to tap, in order, to type `character` from the letters page: shift for a
    /// capital, the symbols page and back for a digit or punctuation. Nil when the keyboard has
    /// no key for it.
    public static func keyTitles(typing character: Character) -> [String]? {
        let s = String(character)
        if s == " " { return ["space"] }
        if s == "\n" { return ["return"] }
        if letterRows.contains(where: { $0.contains(s) }) { return [s] }
        if letterRows.contains(where: { $0.contains(s.lowercased()) }) { return ["\u{21E7}", s] }
        if symbolRows.contains(where: { $0.contains(s) }) { return ["123", s, "ABC"] }
        return nil
    }

    /// Where the key titled `title` is, in window coordinates (laid out first: a page switch
    /// rebuilds the keys).
    public func keyFrame(for title: String) -> Rect? {
        layoutIfNeeded()
        guard let b = keys.first(where: { $0.button.title == title })?.button else { return nil }
        return b.convert(b.bounds, to: nil)
    }

    private func press(_ action: Action) {
        guard let window else { return }
        let t = window.now
        switch action {
        case .text(let s):
            window.handle(InputEvent(time: t, .text(shifted ? s.uppercased() : s)))
            if shifted { shifted = false }
        case .space: window.handle(InputEvent(time: t, .text(" ")))
        case .backspace:
            window.handle(InputEvent(time: t, .key(.backspace, pressed: true, modifiers: [])))
            window.handle(InputEvent(time: t, .key(.backspace, pressed: false, modifiers: [])))
        case .enter:
            window.handle(InputEvent(time: t, .key(.enter, pressed: true, modifiers: [])))
            window.handle(InputEvent(time: t, .key(.enter, pressed: false, modifiers: [])))
        case .shift: shifted.toggle()
        case .symbols: symbols.toggle()
        case .hide: window.focus(nil, byTouch: false)
        }
    }
}

extension OnScreenKeyboard.Action {
    var isCharacter: Bool {
        if case .text = self { return true }
        return self == .space
    }
}
