import ScrollwayCWaylandClient
import ScrollwayWaylandProtocols

// Every C callback of the WestonHarness target. Each recovers its owner from `data` with
// `Unmanaged`; the owner (TestInputClient) holds itself for the connection's lifetime and the
// listener tables live in it, at stable heap addresses, freed in deinit after the proxies.

enum Trampolines {
    static let testInput = scrollway_test_input_v1_listener(
        output_info: { data, _, width, height, scale in
            guard let data else { return }
            Unmanaged<TestInputClient>.fromOpaque(data).takeUnretainedValue()
                .outputInfo(width: Int(width), height: Int(height), scale: Int(scale))
        },
        idle_inhibitors: { data, _, count in
            guard let data else { return }
            Unmanaged<TestInputClient>.fromOpaque(data).takeUnretainedValue().idleInhibitors = Int(count)
        },
        text_input_state: {
            data, _, enabled, hasSurrounding, surrounding, cursor, anchor, hint, purpose, hasRect, x, y, w, h, serial in
            guard let data else { return }
            Unmanaged<TestInputClient>.fromOpaque(data).takeUnretainedValue().textInputCommitted(
                TextInputSnapshot(
                    enabled: enabled != 0,
                    surroundingText: hasSurrounding != 0 ? surrounding.map { String(cString: $0) } ?? "" : nil,
                    cursor: Int(cursor), anchor: Int(anchor), hint: hint, purpose: purpose,
                    cursorRectangle: hasRect != 0
                        ? .init(x: Int(x), y: Int(y), width: Int(w), height: Int(h)) : nil, serial: serial))
        },
        text_input_focus: { data, _, entered in
            guard let data else { return }
            Unmanaged<TestInputClient>.fromOpaque(data).takeUnretainedValue().textInputEntered = entered != 0
        })

    static let capture = scrollway_test_capture_v1_listener(
        done: { data, _ in
            guard let data else { return }
            Unmanaged<CaptureState>.fromOpaque(data).takeUnretainedValue().result = .success(())
        },
        failed: { data, _, reason in
            guard let data else { return }
            Unmanaged<CaptureState>.fromOpaque(data).takeUnretainedValue().result = .failure(
                .captureFailed(reason.map { String(cString: $0) } ?? "unknown"))
        })
}

/// One capture's outcome, filled by the trampoline; held by `capture()` while it waits.
final class CaptureState {
    var result: Result<Void, RigError>?
}
