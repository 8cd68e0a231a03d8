import ScrollwayCWaylandClient

// Every C callback of the WaylandCore target, and the one trampoline style every target with
// C callbacks follows (Wayland, WestonHarness):
// - one `Trampolines.swift` per target holds all of its callbacks, in an `enum Listeners`;
// - each listener table is made once by `listenerTable`, at a stable heap address for the
//   process's lifetime, and never mutated (`&` or `withUnsafePointer` on a Swift global would
//   hand C a temporary copy);
// - each callback recovers its owner from `data` with `owner(_:_:)` (unretained: an owner
//   outlives the proxies it listens to, and destroys them before it goes).

/// The object a listener was added with: `data` is `Unmanaged.passUnretained(owner).toOpaque()`.
@inline(__always) package func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, _: T.Type) -> T {
    Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
}

/// A listener table at a stable heap address, for the process's lifetime.
package func listenerTable<L>(_ listener: L) -> UnsafeMutablePointer<L> {
    let p = UnsafeMutablePointer<L>.allocate(capacity: 1)
    p.initialize(to: listener)
    return p
}

enum Listeners {
    nonisolated(unsafe) static let registry = listenerTable(
        wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let interface else { return }
                owner(data, WaylandDisplay.self)
                    .global(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { data, _, name in owner(data, WaylandDisplay.self).globalRemoved(name: name) }))

    nonisolated(unsafe) static let sync = listenerTable(
        wl_callback_listener(done: { data, _, _ in owner(data, SyncDone.self).value = true }))
}
