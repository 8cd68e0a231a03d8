import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayWaylandCore
import ScrollwayWaylandProtocols

// Every C callback of the WestonHarness target, in the style WaylandCore's Trampolines.swift sets
// out (`listenerTable`, `owner`). Owners: TestInputClient for the injector, a `CaptureState` for
// each capture (held by `capture()` until its outcome arrives).

enum Listeners {
    nonisolated(unsafe) static let testInput = listenerTable(
        scrollway_test_input_v1_listener(
            output_info: { data, _, width, height, scale in
                owner(data, TestInputClient.self)
                    .outputInfo(width: Int(width), height: Int(height), scale: Int(scale))
            },
            idle_inhibitors: { data, _, count in
                owner(data, TestInputClient.self).idleInhibitors = Int(count)
            },
            text_input_state: {
                data, _, enabled, hasSurrounding, surrounding, cursor, anchor, hint, purpose, hasRect, x, y, w, h,
                serial in
                owner(data, TestInputClient.self).textInputCommitted(
                    TextInputSnapshot(
                        enabled: enabled != 0,
                        surroundingText: hasSurrounding != 0 ? surrounding.map { String(cString: $0) } ?? "" : nil,
                        cursor: Int(cursor), anchor: Int(anchor), hint: hint, purpose: purpose,
                        cursorRectangle: hasRect != 0
                            ? .init(x: Int(x), y: Int(y), width: Int(w), height: Int(h)) : nil, serial: serial))
            },
            text_input_focus: { data, _, entered in
                owner(data, TestInputClient.self).textInputEntered = entered != 0
            }))

    nonisolated(unsafe) static let capture = listenerTable(
        scrollway_test_capture_v1_listener(
            done: { data, _ in
                owner(data, CaptureState.self).result = .success(())
            },
            failed: { data, _, reason in
                owner(data, CaptureState.self).result = .failure(
                    .captureFailed(reason.map { String(cString: $0) } ?? "unknown"))
            }))
}

/// One capture's outcome, filled by the trampoline; held by `capture()` while it waits.
final class CaptureState {
    var result: Result<Void, RigError>?
}
