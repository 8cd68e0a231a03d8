import Foundation
import Glibc
import ScrollwayGeometry
import ScrollwayWestonHarness
import Synchronization

/// What a bench run leaves on the machine until it ends (its folder of frame records, its cgroup,
/// the folders of the rigs it starts), so that a run stopped by SIGINT or SIGTERM can take it
/// away before it ends by the signal: the defers that do it at a normal end never run then, and
/// an interrupted `bench --weston --cpu-quota 50` left its cgroup and /tmp folders behind.
/// Filled by `WestonBench.report` as it makes them; `removeAll()` runs on the signal handler's
/// thread, hence the lock.
public final class BenchLeftovers: Sendable {
    private struct Held {
        var folders: [URL] = []
        var cgroups: [URL] = []
    }
    private let held = Mutex(Held())

    public init() {}

    func folder(_ url: URL) { held.withLock { $0.folders.append(url) } }
    func cgroup(_ url: URL) { held.withLock { $0.cgroups.append(url) } }
    func forget(folder url: URL) { held.withLock { $0.folders.removeAll { $0 == url } } }
    func forget(cgroup url: URL) { held.withLock { $0.cgroups.removeAll { $0 == url } } }

    /// Ends the processes in the cgroups (the clients held to a quota) and removes the groups
    /// (the kernel refuses while one holds a process: tried for a second), the folders, and the
    /// runtime folders of this process's rigs (`scrollway-rig-<pid>-…`; their compositors end
    /// with this process, which they watch).
    public func removeAll() {
        let (folders, cgroups) = held.withLock { ($0.folders, $0.cgroups) }
        for group in cgroups {
            // Read again at each try: a client may have joined since.
            for _ in 0..<100 {
                let file = group.appendingPathComponent("cgroup.procs")
                let procs = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                for line in procs.split(separator: "\n") { if let pid = Int32(line) { kill(pid, SIGKILL) } }
                if rmdir(group.path) == 0 || errno == ENOENT { break }
                usleep(10_000)
            }
        }
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        WestonProcess.removeRuntimeDirectoriesOfThisProcess()
    }
}
