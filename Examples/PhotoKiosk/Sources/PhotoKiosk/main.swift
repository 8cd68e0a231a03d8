import Foundation
import PhotoKioskApp
import Scrollway

// The command line. Everything the kiosk shows and does is in PhotoKioskApp (its tests open
// the same window in a headless weston); this file reads the arguments and runs it.
let usage = """
    usage: PhotoKiosk [DIR] [--png FILE]    show the PNG and JPEG photos in DIR (default: the current folder)
           PhotoKiosk --make-samples DIR    write four sample photos into DIR
    --png FILE renders the kiosk's first screen (the contact sheet), offscreen, with no compositor.
    Staff leave the kiosk with a three-finger tap.
    """

func warn(_ message: String) { FileHandle.standardError.write(Data("PhotoKiosk: \(message)\n".utf8)) }

func fail(_ message: String, status: Int32 = 1) -> Never {
    warn(message)
    exit(status)
}

// Fontconfig starts on another thread while the arguments are read and the photos loaded.
FcftLibrary.startInBackground()

var arguments = Array(CommandLine.arguments.dropFirst())

/// Removes `flag VALUE` from the arguments and returns VALUE (nil without the flag).
@MainActor func value(of flag: String) -> String? {
    guard let i = arguments.firstIndex(of: flag) else { return nil }
    guard i + 1 < arguments.count else { fail("\(flag) needs a value\n\(usage)", status: 2) }
    defer { arguments.removeSubrange(i...i + 1) }
    return arguments[i + 1]
}

do {
    if let directory = value(of: "--make-samples") {
        for path in try SamplePhotos.write(to: directory) { print(path) }
        exit(0)
    }
    let png = value(of: "--png")
    if arguments.count > 1 || arguments.contains(where: { $0.hasPrefix("-") }) { fail(usage, status: 2) }
    // The folder is only listed: the window opens at once, and the thumbnails are made on the
    // decoder's thread, the files that do not decode reported (on standard error) as they are found.
    let kiosk = PhotoKiosk(photos: try PhotoFolder.load(arguments.first ?? "."))
    if let png {
        // The frame waits for the thumbnails of the cells it shows (their requests' tickets),
        // not for the whole folder's.
        try PNG.write(Offscreen.render(kiosk.window), toFile: png)
        exit(0)
    }
    let app = try kiosk.open()
    if !app.window.canInhibitIdle { warn("the compositor cannot keep the screen awake") }
    // SIGINT (Ctrl+C) and SIGTERM (systemd stopping the kiosk) end the loop, so the app leaves
    // through the same door as the exit gesture: the window is closed and the process exits 0.
    let signals = [SIGINT, SIGTERM].map { signo in
        signal(signo, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
        source.setEventHandler { app.requestStop() }
        source.resume()
        return source
    }
    try app.run()
    withExtendedLifetime(signals) {}
} catch {
    fail("\(error)")
}
