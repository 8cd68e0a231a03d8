import Scrollway

/// A person's page, over the list: a back button, their initials in a coloured circle, their
/// name, and how to reach them. The list stays underneath as it was, scrolled where it was.
public final class DetailPage: View {
    public let contact: Contact
    public let backButton = Button(title: "‹ Contacts")
    public let nameLabel = Label()
    public let avatar: Avatar
    var onBack: (() -> Void)?
    private let bar = View()
    private var fields: [(caption: Label, value: Label)] = []

    init(contact: Contact) {
        self.contact = contact
        avatar = Avatar(contact: contact)
        super.init()
        backgroundColor = .white
        bar.backgroundColor = Color(rgb: 248, 248, 250)
        backButton.fillColor = Color(rgb: 248, 248, 250)
        backButton.titleColor = .tint
        backButton.onTap = { [weak self] in self?.onBack?() }
        nameLabel.text = contact.name
        nameLabel.font = try? Font.system(size: 26, bold: true)
        nameLabel.textAlignment = .center
        for v in [bar, backButton, avatar, nameLabel] { addSubview(v) }
        for (caption, value) in [("phone", contact.phone), ("email", contact.email), ("city", contact.city)] {
            let c = Label(text: caption)
            c.textColor = Color(rgb: 110, 110, 118)
            c.font = try? Font.system(size: 13)
            let v = Label(text: value)
            v.textColor = .tint
            fields.append((c, v))
            addSubview(c)
            addSubview(v)
        }
    }

    public override func layoutSubviews() {
        let w = bounds.width
        bar.frame = Rect(x: 0, y: 0, width: w, height: 56)
        backButton.frame = Rect(x: 4, y: 6, width: 130, height: 44)
        avatar.frame = Rect(x: (w - Avatar.size) / 2, y: 80, width: Avatar.size, height: Avatar.size)
        nameLabel.frame = Rect(x: 16, y: avatar.frame.maxY + 16, width: w - 32, height: 34)
        var y = nameLabel.frame.maxY + 24
        for f in fields {
            f.caption.frame = Rect(x: 24, y: y, width: w - 48, height: 18)
            f.value.frame = Rect(x: 24, y: y + 18, width: w - 48, height: 24)
            y += 58
        }
    }
}

/// A person's initials, white on a circle of their own colour.
public final class Avatar: View {
    public static let size = 96.0
    public static let colors = [
        Color(rgb: 88, 86, 214), Color(rgb: 255, 149, 0), Color(rgb: 52, 199, 89), Color(rgb: 255, 45, 85),
        Color(rgb: 90, 200, 250), Color(rgb: 175, 82, 222),
    ]
    public let color: Color
    let initials: String

    init(contact: Contact) {
        color = Self.colors[contact.id % Self.colors.count]
        initials = "\(contact.givenName.prefix(1))\(contact.familyName.prefix(1))"
        super.init()
    }

    public override var drawsContent: Bool { true }

    public override func draw(in canvas: Canvas) {
        let r = Rect(origin: .zero, size: bounds.size)
        canvas.fillEllipse(in: r, color: color)
        guard let font = try? Font.system(size: 34, bold: true) else { return }
        canvas.drawText(
            initials, font: font, in: r.insetBy(dx: 0, dy: (r.height - 42) / 2), color: .white, alignment: .center,
            maxLines: 1)
    }
}
