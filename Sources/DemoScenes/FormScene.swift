import ScrollwayGeometry
import ScrollwayLayout
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// A settings page laid out only with constraints: a content view pinned to the scroll
    /// view's content guide and as wide as its frame guide, sections of rows whose titles,
    /// wrapping descriptions and controls (switches, a segmented control, a slider, a stepper,
    /// a time's picker, a date's) are tied to each other, and a bio that grows line by line as
    /// it is typed. Nothing sets a frame or the content size: a narrower window wraps the
    /// descriptions and the content grows taller, and the solver re-solves from where it was.
    public static let form = Scene(
        name: "form",
        summary: "A settings page laid out by constraints and the content guide; grows as text wraps",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let main = addMainScrollView(to: window, contentSize: .zero)
        main.keyboardDismissMode = .interactive
        main.backgroundColor = SettingsForm.background
        main.addContentView(SettingsForm())
        main.layoutIfNeeded()
        OnScreenKeyboard.install(in: window, policy: .systemWhenAvailable)
    }
}

/// The form scene's page: sections of setting rows built with anchors alone (some 300
/// constraints), so that the bench can time a resize of a real form.
public final class SettingsForm: View {
    public static let background = Color(rgb: 242, 242, 247)
    public static let sections: [(title: String, rows: [Row])] = [
        (
            "Profile",
            [
                .field("Name", placeholder: "Your name"), .field("Email", placeholder: "name@example.org"),
                .bio, .toggle("Show my photo", "Everyone who can see your profile sees your photo next to your name."),
            ]
        ),
        (
            "Notifications",
            [
                .toggle("Messages", "A banner for each new message, and the number of unread ones on the icon."),
                .toggle("Mentions", "Only when someone mentions you by name in a group."),
                .toggle("Reminders", "At the time you set, even when the app is closed."),
                .toggle("Sounds", "A short sound with each notification, unless the device is silenced."),
                .toggle("Quiet hours", "No notifications between ten at night and seven in the morning."),
            ]
        ),
        (
            "Privacy",
            [
                .toggle("Read receipts", "People you write to see when you have read their messages."),
                .toggle("Last seen", "Your contacts see when you were last online."),
                .toggle("Location", "Share your location with the people you choose, while the app is open."),
                .toggle("Analytics", "Send anonymous usage statistics that help improve the app."),
                .toggle("Crash reports", "Send a report when the app quits unexpectedly."),
            ]
        ),
        (
            "Storage",
            [
                .toggle("Save photos", "Keep the photos people send you in your library."),
                .toggle("Download on mobile data", "Download media without waiting for a wireless network."),
                .toggle("Keep media", "Keep media on this device for a year; older media is removed."),
                .toggle("Low data mode", "Lower the quality of calls and images to use less data."),
            ]
        ),
        (
            "Appearance",
            [
                .choice("Theme", ["Light", "Dark", "Automatic"]),
                .slider("Text size", "The size of the text in messages and lists."),
                .stepper("Preview lines", "How many lines of each message the list shows.", 2, 1...5),
            ]
        ),
        (
            "Accessibility",
            [
                .toggle("Reduce motion", "Turn pages without sliding and show new messages without animation."),
                .toggle("High contrast", "Darker text and stronger borders."),
                .toggle("Spoken hints", "A screen reader says what each control does after its name."),
            ]
        ),
        (
            "Quiet hours",
            [.time("Starts at", "Notifications wait until quiet hours end.", hour: 22, minute: 0)]
        ),
        (
            "Account",
            [
                .date(
                    "Date of birth", "Only you see it; it proves your age if you ask us to restore the account.",
                    CalendarDay(year: 1990, month: 6, day: 15))
            ]
        ),
    ]

    public enum Row: Sendable {
        case field(String, placeholder: String)
        case toggle(String, String)
        /// A text view without scrolling: it grows with its text.
        case bio
        /// A title, a slider under it and a note under that.
        case slider(String, String)
        /// A title and a segmented control of the choices beside it.
        case choice(String, [String])
        /// A title that shows a number, a stepper for it beside it, and a note under the title.
        case stepper(String, String, Double, ClosedRange<Double>)
        /// A title that shows a time of day, a note under it, and a picker of hours and
        /// minutes under that.
        case time(String, String, hour: Int, minute: Int)
        /// A title that shows a day, a note under it, and month, day and year wheels under that.
        case date(String, String, CalendarDay)
    }

    /// The bio's text view (the one that grows as it wraps).
    public private(set) var bio: TextView!
    /// The constraints this form made (its size for the bench's line).
    public private(set) var madeConstraints: [LayoutConstraint] = []

    public init() {
        super.init()
        name = "form"
        backgroundColor = Self.background
        var below: LayoutYAxisAnchor = topAnchor
        var made: [LayoutConstraint] = []
        for (s, section) in Self.sections.enumerated() {
            let header = Label(text: section.title.uppercased())
            header.font = try? Font.system(size: 13, bold: true)
            header.textColor = Color(rgb: 110, 110, 118)
            header.translatesAutoresizingMaskIntoConstraints = false
            addSubview(header)
            made += [
                header.leadingAnchor.constraint(equalTo: leadingAnchor, constant: 28),
                header.trailingAnchor.constraint(lessThanOrEqualTo: trailingAnchor, constant: -28),
                header.topAnchor.constraint(equalTo: below, constant: s == 0 ? 20 : 28),
            ]
            below = header.bottomAnchor
            for (r, row) in section.rows.enumerated() {
                let card = View()
                card.name = "\(section.title.lowercased()).\(r)"
                card.backgroundColor = .white
                card.translatesAutoresizingMaskIntoConstraints = false
                addSubview(card)
                made += [
                    card.leadingAnchor.constraint(equalTo: leadingAnchor, constant: 16),
                    card.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -16),
                    card.topAnchor.constraint(equalTo: below, constant: r == 0 ? 8 : 1),
                ]
                made += fill(card, with: row)
                below = card.bottomAnchor
            }
        }
        made.append(bottomAnchor.constraint(equalTo: below, constant: 32))
        madeConstraints = made
        LayoutConstraint.activate(made)
    }

    /// A title, a note under it and a picker under that, across `card`: the time's and the
    /// date's rows.
    private static func stacked(_ label: Label, _ note: Label, over picker: View, in card: View) -> [LayoutConstraint] {
        [
            label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
            label.topAnchor.constraint(equalTo: card.topAnchor, constant: 12),
            note.leadingAnchor.constraint(equalTo: label.leadingAnchor),
            note.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -12),
            note.topAnchor.constraint(equalTo: label.bottomAnchor, constant: 4),
            picker.leadingAnchor.constraint(equalTo: card.leadingAnchor),
            picker.trailingAnchor.constraint(equalTo: card.trailingAnchor),
            picker.topAnchor.constraint(equalTo: note.bottomAnchor, constant: 4),
            card.bottomAnchor.constraint(equalTo: picker.bottomAnchor, constant: 4),
        ]
    }

    /// "15 June 1990".
    static func spelled(_ day: CalendarDay) -> String {
        "\(day.day) \(DatePicker.englishMonthSymbols[min(max(day.month, 1), 12) - 1]) \(day.year)"
    }

    /// A row's description under its title: small grey text, wrapped.
    private static func note(_ text: String) -> Label {
        let note = Label(text: text)
        note.numberOfLines = 0
        note.font = try? Font.system(size: 13)
        note.textColor = Color(rgb: 110, 110, 118)
        return note
    }

    /// A row's content and the constraints that place it inside `card`.
    private func fill(_ card: View, with row: Row) -> [LayoutConstraint] {
        func managed<V: View>(_ v: V) -> V {
            v.translatesAutoresizingMaskIntoConstraints = false
            card.addSubview(v)
            return v
        }
        switch row {
        case .field(let title, let placeholder):
            let label = managed(Label(text: title))
            let field = managed(TextField(placeholder: placeholder))
            field.name = title.lowercased()
            field.accessibilityLabel = title  // the label beside it names it, not its placeholder
            label.setContentHuggingPriority(.defaultHigh, for: .horizontal)
            return [
                label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
                label.centerYAnchor.constraint(equalTo: field.centerYAnchor),
                field.leadingAnchor.constraint(equalTo: label.trailingAnchor, constant: 12),
                field.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -8),
                field.topAnchor.constraint(equalTo: card.topAnchor, constant: 4),
                card.bottomAnchor.constraint(equalTo: field.bottomAnchor, constant: 4),
                label.widthAnchor.constraint(equalToConstant: 64),
            ]
        case .bio:
            let label = managed(Label(text: "Bio"))
            let text = managed(TextView())
            text.name = "bio"
            text.placeholder = "A few words about you"
            text.accessibilityLabel = "Bio"
            text.isScrollEnabled = false
            bio = text
            return [
                label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
                label.topAnchor.constraint(equalTo: card.topAnchor, constant: 10),
                text.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 8),
                text.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -8),
                text.topAnchor.constraint(equalTo: label.bottomAnchor, constant: 4),
                card.bottomAnchor.constraint(equalTo: text.bottomAnchor, constant: 8),
            ]
        case .choice(let title, let choices):
            let label = managed(Label(text: title))
            let control = managed(SegmentedControl(items: choices))
            control.name = title.lowercased()
            control.accessibilityLabel = title
            control.selectedSegmentIndex = choices.count - 1
            return [
                label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
                label.centerYAnchor.constraint(equalTo: control.centerYAnchor),
                label.widthAnchor.constraint(equalToConstant: 64),
                control.leadingAnchor.constraint(equalTo: label.trailingAnchor, constant: 12),
                control.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -12),
                control.topAnchor.constraint(equalTo: card.topAnchor, constant: 8),
                card.bottomAnchor.constraint(equalTo: control.bottomAnchor, constant: 8),
            ]
        case .slider(let title, let detail):
            let label = managed(Label(text: title))
            let note = managed(Self.note(detail))
            let slider = managed(Slider(value: 0.5))
            slider.name = title.lowercased()
            slider.accessibilityLabel = title
            return [
                label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
                label.topAnchor.constraint(equalTo: card.topAnchor, constant: 12),
                slider.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
                slider.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -12),
                slider.topAnchor.constraint(equalTo: label.bottomAnchor, constant: 2),
                note.leadingAnchor.constraint(equalTo: label.leadingAnchor),
                note.trailingAnchor.constraint(equalTo: slider.trailingAnchor),
                note.topAnchor.constraint(equalTo: slider.bottomAnchor, constant: 2),
                card.bottomAnchor.constraint(equalTo: note.bottomAnchor, constant: 12),
            ]
        case .stepper(let title, let detail, let value, let range):
            let label = managed(Label(text: "\(title): \(Int(clamping: value, rounding: .down))"))
            let note = managed(Self.note(detail))
            let stepper = managed(Stepper(value: 0))
            stepper.minimumValue = range.lowerBound
            stepper.maximumValue = range.upperBound
            stepper.value = value
            stepper.name = title.lowercased()
            stepper.accessibilityLabel = title
            stepper.onValueChanged = { [unowned label] n in
                label.text = "\(title): \(Int(clamping: n, rounding: .down))"
            }
            return [
                stepper.topAnchor.constraint(equalTo: card.topAnchor, constant: 8),
                stepper.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -8),
                label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
                label.centerYAnchor.constraint(equalTo: stepper.centerYAnchor),
                label.trailingAnchor.constraint(lessThanOrEqualTo: stepper.leadingAnchor, constant: -8),
                note.leadingAnchor.constraint(equalTo: label.leadingAnchor),
                note.trailingAnchor.constraint(equalTo: stepper.leadingAnchor, constant: -8),
                note.topAnchor.constraint(equalTo: stepper.bottomAnchor, constant: 4),
                card.bottomAnchor.constraint(equalTo: note.bottomAnchor, constant: 12),
            ]
        case .time(let title, let detail, let hour, let minute):
            let start = TimeOfDay(hour: hour, minute: minute)
            let label = managed(Label(text: "\(title) \(start)"))
            let note = managed(Self.note(detail))
            let picker = managed(TimePicker(time: start))
            picker.uses24HourClock = true
            picker.name = title.lowercased()
            picker.accessibilityLabel = title
            picker.onTimeChanged = { [unowned label] in label.text = "\(title) \($0)" }
            return Self.stacked(label, note, over: picker, in: card)
        case .date(let title, let detail, let day):
            let label = managed(Label(text: "\(title): \(Self.spelled(day))"))
            let note = managed(Self.note(detail))
            let picker = managed(DatePicker(date: day))
            picker.name = title.lowercased()
            picker.accessibilityLabel = title
            picker.maximumDate = CalendarDay(year: 2026, month: 12, day: 31)
            picker.onDateChanged = { [unowned label] in label.text = "\(title): \(Self.spelled($0))" }
            return Self.stacked(label, note, over: picker, in: card)
        case .toggle(let title, let detail):
            let label = managed(Label(text: title))
            let note = managed(Self.note(detail))
            let toggle = managed(Switch(isOn: true))
            toggle.name = title.lowercased()
            // Heard as "<title>, toggle button, checked": the label beside it names it.
            toggle.accessibilityLabel = title
            return [
                toggle.topAnchor.constraint(equalTo: card.topAnchor, constant: 8),
                toggle.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -8),
                toggle.widthAnchor.constraint(equalToConstant: 64),
                label.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 12),
                label.centerYAnchor.constraint(equalTo: toggle.centerYAnchor),
                label.trailingAnchor.constraint(lessThanOrEqualTo: toggle.leadingAnchor, constant: -8),
                note.leadingAnchor.constraint(equalTo: label.leadingAnchor),
                note.trailingAnchor.constraint(equalTo: toggle.leadingAnchor, constant: -8),
                note.topAnchor.constraint(equalTo: label.bottomAnchor, constant: 4),
                card.bottomAnchor.constraint(equalTo: note.bottomAnchor, constant: 12),
            ]
        }
    }
}
