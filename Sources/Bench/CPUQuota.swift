import Foundation
import Glibc
import ScrollwayWaylandCore

/// A cgroup that holds each client of `bench --weston --cpu-quota` to a share of one core, a
/// stand-in for a small kiosk board: cgroup v2's `cpu.max` where this process's cgroup2 group
/// hands the cpu controller to its children, else v1's `cpu.cfs_quota_us` under the cpu
/// hierarchy (what this development machine has). A client joins the group before it execs
/// (`wrap`), so not one instruction of it runs outside.
public struct CPUQuota: Sendable {
    public let percent: Int
    /// The group's directory.
    public let directory: URL
    /// 1 or 2.
    public let version: Int
    /// The scheduler period the quota is a share of, µs.
    static let periodMicroseconds = 100_000

    /// Makes a group `name` under this process's own cgroup and sets its limit.
    public init(percent: Int, name: String) throws {
        guard (1...100).contains(percent) else { throw BenchError("--cpu-quota: expected 1 to 100, got \(percent)") }
        let (parent, version) = try Self.controller().get()
        let dir = parent.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        } catch {
            throw BenchError(
                "--cpu-quota: cannot make the cgroup \(dir.path) (\(error.localizedDescription)): run as root "
                    + "or from a cgroup delegated to you")
        }
        self.percent = percent
        self.directory = dir
        self.version = version
        let quota = Self.periodMicroseconds * percent / 100
        do {
            if version == 2 {
                try Self.write("\(quota) \(Self.periodMicroseconds)\n", to: dir.appendingPathComponent("cpu.max"))
            } else {
                try Self.write("\(Self.periodMicroseconds)\n", to: dir.appendingPathComponent("cpu.cfs_period_us"))
                try Self.write("\(quota)\n", to: dir.appendingPathComponent("cpu.cfs_quota_us"))
            }
        } catch {
            remove()
            throw BenchError("--cpu-quota: cannot set the limit of \(dir.path): \(error)")
        }
    }

    /// `command` run by a shell that first moves itself into the group, then execs it.
    public func wrap(_ command: [String]) -> [String] {
        let procs = directory.appendingPathComponent("cgroup.procs").path
        return ["/bin/sh", "-c", "echo $$ > '\(procs)' && exec \"$0\" \"$@\""] + command
    }

    /// Removes the group (its clients gone): the kernel refuses while a process is in it.
    public func remove() { rmdir(directory.path) }

    private static func write(_ text: String, to file: URL) throws {
        let fd = open(file.path, O_WRONLY)
        guard fd >= 0 else { throw BenchError("\(file.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let n = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        guard n == text.utf8.count else { throw BenchError("\(file.path): \(String(cString: strerror(errno)))") }
    }

    /// This process's cgroup directory under which a child group gets a cpu limit, and the
    /// cgroup version; or why there is none. A cgroup2 directory qualifies only when it hands the
    /// cpu controller to its children (`cgroup.subtree_control`): a child of one that merely has
    /// it gets no `cpu.max`, and the kernel refuses to enable it below a group that holds
    /// processes, as this one does (the bench's own).
    static func controller() -> Result<(URL, Int), BenchError> {
        guard let mounts = ProcFile.text("/proc/self/mountinfo"), let own = ProcFile.text("/proc/self/cgroup")
        else { return .failure(BenchError("--cpu-quota: cannot read /proc/self/mountinfo and /proc/self/cgroup")) }
        func words(_ file: URL) -> [Substring] {
            ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" })
        }
        var v1: URL?
        var v2Refusal: String?
        for group in CgroupCPUGroup.groups(mountinfo: mounts, cgroup: own) {
            let dir = URL(fileURLWithPath: group.directory)
            if group.version == 2 {
                if words(dir.appendingPathComponent("cgroup.subtree_control")).contains("cpu") {
                    return .success((dir, 2))
                }
                if words(dir.appendingPathComponent("cgroup.controllers")).contains("cpu") {
                    v2Refusal =
                        "the cgroup2 group \(dir.path) has the cpu controller but does not hand it to child groups "
                        + "(its cgroup.subtree_control): run the bench in a group that does, e.g. under "
                        + "`systemd-run --scope`"
                }
            } else if v1 == nil {
                v1 = dir
            }
        }
        if let v1 { return .success((v1, 1)) }
        return .failure(
            BenchError(
                "--cpu-quota: "
                    + (v2Refusal
                        ?? "this process has no cgroup cpu controller it can use (no cgroup2 group handing 'cpu' to "
                        + "its children, no cgroup v1 'cpu' hierarchy in /proc/self/mountinfo)")))
    }
}
