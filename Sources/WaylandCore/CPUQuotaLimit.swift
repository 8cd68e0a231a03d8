import Glibc

/// The cgroup groups this process belongs to that can limit its CPU time: the cgroup2 group,
/// and the group in a cgroup v1 hierarchy with the cpu controller, each with the directory it
/// shows as and the mount it shows under.
public struct CgroupCPUGroup: Equatable, Sendable {
    /// 1 or 2.
    public let version: Int
    /// The group's directory (under `mountPoint`).
    public let directory: String
    /// Where its hierarchy is mounted: the top a walk up from `directory` stops at.
    public let mountPoint: String

    public init(version: Int, directory: String, mountPoint: String) {
        self.version = version
        self.directory = directory
        self.mountPoint = mountPoint
    }

    /// This process's groups, from /proc/self/mountinfo and /proc/self/cgroup.
    public static func own() -> [CgroupCPUGroup] {
        guard let mounts = SmallFile.text("/proc/self/mountinfo"),
            let own = SmallFile.text("/proc/self/cgroup")
        else { return [] }
        return groups(mountinfo: mounts, cgroup: own)
    }

    /// The groups named in `cgroup` (/proc/self/cgroup: "hierarchy:controllers:path", v2's is
    /// "0::path") under the mounts of `mountinfo` that show them, cgroup2 first.
    public static func groups(mountinfo: String, cgroup: String) -> [CgroupCPUGroup] {
        var v1Path: String?
        var v2Path: String?
        for line in cgroup.split(separator: "\n") {
            let f = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard f.count == 3 else { continue }
            if f[0] == "0" && f[1].isEmpty { v2Path = String(f[2]) }
            if f[1].split(separator: ",").contains("cpu") { v1Path = String(f[2]) }
        }
        var v2: [CgroupCPUGroup] = []
        var v1: [CgroupCPUGroup] = []
        for line in mountinfo.split(separator: "\n") {
            // id parent major:minor root mountpoint options … - fstype source superoptions
            let fields = line.split(separator: " ")
            guard let dash = fields.firstIndex(of: "-") else { continue }
            let left = fields[..<dash]
            let right = Array(fields[(dash + 1)...])
            guard left.count >= 5, right.count >= 3 else { continue }
            let mountPoint = String(fields[4])
            if right[0] == "cgroup2", let v2Path, let dir = under(mountPoint, root: fields[3], v2Path) {
                v2.append(CgroupCPUGroup(version: 2, directory: dir, mountPoint: mountPoint))
            }
            if right[0] == "cgroup", right[2].split(separator: ",").contains("cpu"), let v1Path,
                let dir = under(mountPoint, root: fields[3], v1Path)
            {
                v1.append(CgroupCPUGroup(version: 1, directory: dir, mountPoint: mountPoint))
            }
        }
        return v2 + v1
    }

    /// A mount shows its hierarchy from `root` (mountinfo's fourth field), while a path in
    /// /proc/self/cgroup is from the hierarchy's top: the group's directory, or nil when the
    /// mount does not show it (a container's view of another group).
    private static func under(_ mountPoint: String, root: Substring, _ path: String) -> String? {
        var relative = path
        if root != "/" {
            guard path == root || path.hasPrefix(root + "/") else { return nil }
            relative = String(path.dropFirst(root.count))
        }
        if relative.hasPrefix("/") { relative.removeFirst() }
        return relative.isEmpty ? mountPoint : (mountPoint.hasSuffix("/") ? mountPoint : mountPoint + "/") + relative
    }
}

/// The CPU quota this process runs under, if any: the tightest limit of its cgroup groups and
/// their ancestors (cgroup2's `cpu.max`, v1's `cpu.cfs_quota_us` over `cpu.cfs_period_us`), in
/// cores (a fraction of one, or several) and the period it is counted over.
public struct CPUQuotaLimit: Equatable, Sendable {
    public let cores: Double
    /// Seconds.
    public let period: Double

    public init(cores: Double, period: Double) {
        self.cores = cores
        self.period = period
    }

    /// This process's quota (nil: none, or none this process can see).
    public static func current() -> CPUQuotaLimit? {
        tightest(in: CgroupCPUGroup.own(), read: { SmallFile.text($0) })
    }

    /// The tightest limit set on `groups` or their ancestors up to each one's mount, reading
    /// each limit file with `read` (a path to its text, nil when absent).
    public static func tightest(in groups: [CgroupCPUGroup], read: (String) -> String?) -> CPUQuotaLimit? {
        var best: CPUQuotaLimit?
        for group in groups {
            var dir = group.directory
            while true {
                if let limit = limit(in: dir, version: group.version, read: read),
                    best.map({ limit.cores < $0.cores }) ?? true
                {
                    best = limit
                }
                // Up to the mount's top, never above it.
                guard dir.count > group.mountPoint.count, let slash = dir.lastIndex(of: "/") else { break }
                dir = String(dir[..<slash])
                if dir.count < group.mountPoint.count { break }
            }
        }
        return best
    }

    /// The limit one group's files set, nil when none ("max", -1) or unreadable.
    static func limit(in dir: String, version: Int, read: (String) -> String?) -> CPUQuotaLimit? {
        func number(_ s: Substring?) -> Double? { s.flatMap { Double($0) } }
        if version == 2 {
            guard let text = read(dir + "/cpu.max") else { return nil }
            let f = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard let quota = number(f.first), let period = number(f.dropFirst().first), quota > 0, period > 0
            else { return nil }
            return CPUQuotaLimit(cores: quota / period, period: period / 1e6)
        }
        guard let q = read(dir + "/cpu.cfs_quota_us"), let p = read(dir + "/cpu.cfs_period_us"),
            let quota = number(q.split(separator: "\n").first), let period = number(p.split(separator: "\n").first),
            quota > 0, period > 0
        else { return nil }
        return CPUQuotaLimit(cores: quota / period, period: period / 1e6)
    }
}
