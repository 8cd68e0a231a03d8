import ContactsApp
import Scrollway

// The command line. The screen is in ContactsApp (its tests open the same window in a headless
// weston); this file opens it on the compositor, or renders it offscreen with `--png FILE`.
let window = Window(size: Size(width: 390, height: 844))
let screen = ContactsScreen(book: AddressBook())
screen.install(in: window)

// An error (no compositor, a PNG that cannot be written) ends the app with a message, not a trap.
WaylandApp.runMain {
    if let png = try WaylandApp.pngOutput(Array(CommandLine.arguments.dropFirst())) {
        let canvas = try Offscreen.render(window)
        try PNG.write(canvas, toFile: png)
    } else {
        let app = try WaylandApp(content: window, title: "Contacts", appID: "contacts")
        try app.run()
    }
}
