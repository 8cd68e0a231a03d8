import Foundation
import Glibc

/// A cgroup that holds each client of `bench --weston --cpu-quota` to a share of one core, a
/// stand-in for a small kiosk board: cgroup v2's `cpu.max` where this process's cgroup2 tree
/// has the cpu controller, else v1's `cpu.cfs_quota_us` under the cpu hierarchy. A client joins
/// the group before it execs (`wrap`), so not one instruction of it runs outside.
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
        guard let (parent, version) = Self.controller() else {
            throw BenchError(
                "--cpu-quota: this process has no cgroup cpu controller it can use (looked in /proc/self/mountinfo "
                    + "for a cgroup2 tree with 'cpu' in cgroup.controllers and a cgroup v1 'cpu' hierarchy)")
        }
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

    /// This process's cgroup directory with a cpu controller, and the cgroup version.
    static func controller() -> (URL, Int)? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8),
            let own = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
        else { return nil }
        // /proc/self/cgroup: "hierarchy:controllers:path"; v2's is "0::path".
        var v1Path: String?
        var v2Path: String?
        for line in own.split(separator: "\n") {
            let f = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard f.count == 3 else { continue }
            if f[0] == "0" && f[1].isEmpty { v2Path = String(f[2]) }
            if f[1].split(separator: ",").contains("cpu") { v1Path = String(f[2]) }
        }
        var v1: URL?
        for line in mounts.split(separator: "\n") {
            // mountinfo: id parent major:minor root mountpoint options … - fstype source superoptions
            let halves = line.components(separatedBy: " - ")
            guard halves.count == 2 else { continue }
            let left = halves[0].split(separator: " ")
            let right = halves[1].split(separator: " ")
            guard left.count >= 5, right.count >= 3 else { continue }
            let mountPoint = URL(fileURLWithPath: String(left[4]))
            if right[0] == "cgroup2", let v2Path {
                let dir = mountPoint.appendingPathComponent(v2Path)
                let controllers =
                    (try? String(contentsOf: dir.appendingPathComponent("cgroup.controllers"), encoding: .utf8)) ?? ""
                if controllers.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("cpu") { return (dir, 2) }
            }
            if right[0] == "cgroup", right[2].split(separator: ",").contains("cpu"), let v1Path {
                v1 = mountPoint.appendingPathComponent(v1Path)
            }
        }
        return v1.map { ($0, 1) }
    }
}
