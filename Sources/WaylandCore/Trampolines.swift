import ScrollwayCWaylandClient

// Every C callback of the WaylandCore target. Each recovers its owner from `data` with
// `Unmanaged` (unretained: the display outlives its registry). Listener tables are allocated
// once on the heap, at stable addresses for the process's lifetime, and never mutated.

enum Listeners {
    nonisolated(unsafe) static let registry: UnsafeMutablePointer<wl_registry_listener> = {
        let p = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        p.initialize(
            to: wl_registry_listener(
                global: { data, _, name, interface, version in
                    guard let data, let interface else { return }
                    Unmanaged<WaylandDisplay>.fromOpaque(data).takeUnretainedValue()
                        .global(name: name, interface: String(cString: interface), version: version)
                },
                global_remove: { data, _, name in
                    guard let data else { return }
                    Unmanaged<WaylandDisplay>.fromOpaque(data).takeUnretainedValue().globalRemoved(name: name)
                }))
        return p
    }()

    nonisolated(unsafe) static let sync: UnsafeMutablePointer<wl_callback_listener> = {
        let p = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        p.initialize(
            to: wl_callback_listener(done: { data, _, _ in
                guard let data else { return }
                Unmanaged<SyncDone>.fromOpaque(data).takeUnretainedValue().value = true
            }))
        return p
    }()
}
