import ScrollwayGeometry
import ScrollwayLayout
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// A long form of text fields, and a multi-line notes view at its end, with the on-screen
    /// keyboard: touching a field brings the keyboard up (the system's instead where the
    /// compositor offers text-input-v3), the form's bottom inset grows by what it covers, and
    /// the field scrolls into view 12 px above it. Dragging the form dismisses the keyboard
    /// interactively.
    public static let keyboard = Scene(
        name: "keyboard",
        summary: "A long form with the on-screen keyboard and the keyboard inset",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let stack = StackView(frame: .zero, spacing: 8, insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16))
        for i in 1...KeyboardForm.fields {
            let label = Label(text: "Field \(i)")
            label.textColor = Color(rgb: 90, 90, 96)
            stack.addArrangedSubview(label)
            let field = TextField(placeholder: "Type something")
            field.name = "field\(i)"
            // Named by the label above it: a reader says "Field 3", not sixteen "Type something"s.
            field.accessibilityLabel = label.text
            stack.addArrangedSubview(field)
        }
        let notesLabel = Label(text: "Notes")
        notesLabel.textColor = Color(rgb: 90, 90, 96)
        stack.addArrangedSubview(notesLabel)
        // A few lines tall: longer notes scroll inside it, and the form keeps the caret in sight.
        let notes = TextView()
        notes.name = "notes"
        notes.placeholder = "Notes"
        notes.accessibilityLabel = notesLabel.text
        stack.addArrangedSubview(notes)
        notes.heightAnchor.constraint(equalToConstant: KeyboardForm.notesHeight).isActive = true
        let main = addMainScrollView(to: window, contentSize: .zero)
        main.keyboardDismissMode = .interactive
        // The form is the content (its size the content size), as wide as the window at any size.
        main.addContentView(stack)
        main.layoutIfNeeded()
        // A system keyboard, where the compositor offers one (a phone), types instead.
        OnScreenKeyboard.install(in: window, policy: .systemWhenAvailable)
    }
}

public enum KeyboardForm {
    public static let fields = 16
    /// The notes view's height: five lines of the standard font and the text inset.
    public static let notesHeight = 116.0
}
