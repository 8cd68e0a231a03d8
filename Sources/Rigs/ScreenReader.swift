import Foundation
import Glibc
import ScrollwayGeometry
import ScrollwayWestonHarness

/// Orca, GNOME's screen reader, running headless in an `AccessibilityBus` session so that a
/// test can hear what it says about an app: its speech goes to speech-dispatcher, whose only
/// output module here writes each utterance to a file (`spoken`), and Orca's own debug log
/// records what it sent (`SPEECH OUTPUT: '…'`).
///
/// Orca is a GTK 3 program that wants a display for its windows and X's keyboard tools: it is
/// given GTK's broadway backend (a display served by broadwayd, with nothing watching it) and
/// an `xkbcomp` that does nothing (it would otherwise wait on an X server that is not there).
/// Braille and key echo are off; another Orca of the same user is no reason for it to quit.
/// Its keys come from the apps, which forward them to AT-SPI's registry (on Wayland a screen
/// reader cannot watch the keyboard itself).
///
/// Everything it starts carries a marker in its environment and is ended by `stop()`
/// (speech-dispatcher is started by Orca and outlives it otherwise).
public final class ScreenReader {
    /// Orca and broadwayd as Debian installs them.
    public static let orca = "/usr/bin/orca"
    public static let broadwayd = "/usr/bin/broadwayd"

    private let directory: URL
    private var processes: [Process] = []
    private let marker: String
    /// Where the speech module writes what is spoken, one utterance a line.
    public let speechFile: URL
    /// Orca's debug log.
    public let debugFile: URL
    /// Written by Orca as it enters its event loop (`isListening`).
    private let readyFile: URL

    /// Starts broadwayd and Orca in `bus`'s session. Orca is ready when it has said "Screen
    /// reader on" (`spoken`) and is listening (`isListening`), which it does after reading
    /// the desktop: an app it should find must be answering its calls meanwhile.
    public init(bus: AccessibilityBus) throws {
        for tool in [Self.orca, Self.broadwayd, "/usr/bin/speech-dispatcher"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw RigError.system(
                "\(tool) is not installed (Scripts/install-deps.sh installs orca, libgtk-3-bin and speech-dispatcher)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scrollway-orca-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        marker = "SCROLLWAY_SCREEN_READER=\(directory.lastPathComponent)"
        speechFile = directory.appendingPathComponent("spoken.txt")
        debugFile = directory.appendingPathComponent("orca-debug.txt")
        readyFile = directory.appendingPathComponent("listening")
        let fm = FileManager.default
        let config = directory.appendingPathComponent("config")
        let speechd = config.appendingPathComponent("speech-dispatcher")
        let shims = directory.appendingPathComponent("bin")
        for d in [speechd.appendingPathComponent("modules"), shims, directory.appendingPathComponent("orca")] {
            try fm.createDirectory(at: d, withIntermediateDirectories: true)
        }
        try Data().write(to: speechFile)
        // speech-dispatcher's own configuration with one more module, the default: a generic
        // module whose "synthesis" appends the text to the file.
        var conf = (try? String(contentsOfFile: "/etc/speech-dispatcher/speechd.conf", encoding: .utf8)) ?? ""
        // Audio through libao: the generic module plays nothing, but a module whose audio
        // cannot start (no sound server here) is not loaded.
        conf +=
            "\nAddModule \"logger\" \"sd_generic\" \"logger.conf\"\nDefaultModule logger\nAudioOutputMethod \"libao\"\n"
        // The clients' settings it includes.
        try? fm.copyItem(
            at: URL(fileURLWithPath: "/etc/speech-dispatcher/clients"), to: speechd.appendingPathComponent("clients"))
        try conf.write(to: speechd.appendingPathComponent("speechd.conf"), atomically: true, encoding: .utf8)
        let module = """
            GenericExecuteSynth "printf '%s\\\\n' \\'$DATA\\' >> \(speechFile.path)"
            GenericCmdDependency "printf"
            AddVoice "en" "MALE1" "default"
            GenericLanguage "en" "en" "utf-8"

            """
        try module.write(
            to: speechd.appendingPathComponent("modules/logger.conf"), atomically: true, encoding: .utf8)
        // Orca loads the customizations in its settings folder while it starts. These mark
        // the moment it enters its event loop (`orca.start`, after it has read which element
        // has the focus), which its debug log tells only when its buffer is next written out;
        // and they turn off its echo of keys: saying "left shift" held it 0.2 s on a loaded
        // machine, past the 0.1 s an app waits for its answer about the next key, and a key
        // the app acts on before Orca reads it moves the focus without a word (Orca takes the
        // focus it finds as it reads a key as already said).
        let ready = """
            import orca.settings as _settings
            _settings.enableKeyEcho = False
            import orca.orca as _orca
            _start = _orca.start
            def _start_marked(*args, **kwargs):
                open(\(Self.pythonString(readyFile.path)), "w").close()
                return _start(*args, **kwargs)
            _orca.start = _start_marked

            """
        try ready.write(
            to: directory.appendingPathComponent("orca/orca-customizations.py"), atomically: true, encoding: .utf8)
        let xkbcomp = shims.appendingPathComponent("xkbcomp")
        try "#!/bin/sh\nexit 0\n".write(to: xkbcomp, atomically: true, encoding: .utf8)
        chmod(xkbcomp.path, 0o755)
        // Orca quits when `pgrep -u UID -x orca` finds another Orca of the same user (one a
        // killed test left, another test's, the developer's own), and with `--replace` would
        // kill it: this one has a bus, a home and a speech server of its own, so it is told
        // of none.
        let pgrep = shims.appendingPathComponent("pgrep")
        try """
        #!/bin/sh
        case " $* " in *" -x orca "*) exit 1 ;; esac
        exec /usr/bin/pgrep "$@"

        """.write(to: pgrep, atomically: true, encoding: .utf8)
        chmod(pgrep.path, 0o755)

        var env = try bus.environment
        env["HOME"] = directory.path
        env["XDG_CONFIG_HOME"] = config.path
        env["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        env["PATH"] = shims.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let (key, value) = Self.split(marker)
        env[key] = value
        env["DISPLAY"] = ":99"
        env["NO_AT_BRIDGE"] = "1"
        env["GDK_BACKEND"] = "broadway"
        do {
            // broadwayd also serves the display over TCP, and quits when its port is taken:
            // displays are tried until one starts (its socket is abstract, so its word is what
            // shows it listens). Orca waits for it: before, it finds no display and quits.
            var listening = false
            for attempt in 0..<20 where !listening {
                let display = 100 + Int(UInt32.random(in: 0..<800))
                try start(
                    Self.broadwayd, ["--address", "127.0.0.1", "--port", "\(20_000 + display)", ":\(display)"],
                    env: env, log: "broadwayd-\(attempt).txt")
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline, processes.last?.isRunning == true, !listening {
                    let said = (try? String(contentsOf: logFile("broadwayd-\(attempt).txt"), encoding: .utf8)) ?? ""
                    listening = said.contains("Listening on") && !said.contains("Unable to listen")
                    if !listening { usleep(10_000) }
                }
                // It says it listens on its socket before it tries the port.
                if listening {
                    usleep(200_000)
                    let said = (try? String(contentsOf: logFile("broadwayd-\(attempt).txt"), encoding: .utf8)) ?? ""
                    listening = processes.last?.isRunning == true && !said.contains("Unable to listen")
                }
                if listening { env["BROADWAY_DISPLAY"] = ":\(display)" } else { stopLast() }
            }
            guard listening else { throw RigError.system("broadwayd could not start on any display:\n\(log)") }
            try start(
                Self.orca,
                [
                    "-u", directory.appendingPathComponent("orca").path, "--debug", "--debug-file", debugFile.path,
                    "-d", "braille",
                ],
                env: env, log: "orca.txt")
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// `text` as a Python string literal.
    private static func pythonString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    private static func split(_ assignment: String) -> (String, String) {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }

    private func logFile(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Ends the last process started (a broadwayd that did not listen).
    private func stopLast() {
        guard let p = processes.popLast() else { return }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    private func start(_ tool: String, _ arguments: [String], env: [String: String], log: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.environment = env
        let out = directory.appendingPathComponent(log)
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        p.standardOutput = handle
        p.standardError = handle
        p.standardInput = FileHandle.nullDevice
        try p.runWithSignalsUnblocked()
        processes.append(p)
    }

    /// What the speech module was given to say so far, one utterance a line.
    public var spoken: [String] {
        ((try? String(contentsOf: speechFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// What Orca's debug log says it sent to speech so far (`SPEECH OUTPUT: 'text'`, the text
    /// running over lines when it has several, followed by its voice's settings `{…}` or the
    /// line's end).
    public var speechOutput: [String] {
        let log = (try? String(contentsOf: debugFile, encoding: .utf8)) ?? ""
        var said: [String] = []
        var rest = log[...]
        while let r = rest.range(of: "SPEECH OUTPUT: '") {
            rest = rest[r.upperBound...]
            let end =
                [rest.range(of: "'{"), rest.range(of: "'\n")].compactMap { $0?.lowerBound }.min() ?? rest.endIndex
            said.append(String(rest[..<end]))
            rest = rest[end...]
        }
        return said
    }

    /// Orca's and broadwayd's output so far, for a failure's message.
    public var log: String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("orca.") || $0.hasPrefix("broadwayd") }.sorted()
        let debug = ((try? String(contentsOf: debugFile, encoding: .utf8)) ?? "").split(separator: "\n").suffix(40)
        return names.map { name in
            "== \(name)\n" + ((try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? "")
        }.joined(separator: "\n") + "\n== the end of Orca's debug log\n" + debug.joined(separator: "\n")
    }

    /// Whether Orca has entered its event loop: it has set its focus to the element focused
    /// as it started (silently), and reads each later focus change as the user's. Its "Screen
    /// reader on" comes before that: a key that moves the focus in between is read as the
    /// focus it started with, and never spoken.
    public var isListening: Bool { FileManager.default.fileExists(atPath: readyFile.path) }

    /// Whether Orca is still running.
    public var isRunning: Bool { processes.last?.isRunning ?? false }

    /// Ends Orca, broadwayd and whatever they started (speech-dispatcher and its modules),
    /// found by the marker in their environment, and removes the directory.
    public func stop() {
        for p in processes where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        for p in processes { p.waitUntilExit() }
        processes = []
        for pid in Self.processes(carrying: marker) { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The processes whose environment holds `assignment`.
    static func processes(carrying assignment: String) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
            else { return nil }
            return environ.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == assignment }
                ? pid : nil
        }
    }
}
