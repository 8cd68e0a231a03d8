import ScrollwayWaylandCore
import Testing

/// Finding the CPU quota a process runs under from its cgroup files (`CPUQuotaLimit`), on the
/// mount tables and cgroup files of a v1 machine (this one), a cgroup2 one and a container.
struct CPUQuotaLimitTests {
    static let v1Mounts = """
        30 25 0:27 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
        31 25 0:28 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
        34 25 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
        """
    static let v2Mounts = """
        22 1 0:21 / /proc rw,nosuid - proc proc rw
        35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate
        """

    @Test func aV1GroupAndItsAncestorsGiveTheTightestLimit() {
        let groups = CgroupCPUGroup.groups(
            mountinfo: Self.v1Mounts, cgroup: "4:memory:/m\n1:cpu:/kiosk/app\n0::/\n")
        #expect(
            groups.contains(
                CgroupCPUGroup(version: 1, directory: "/sys/fs/cgroup/cpu/kiosk/app", mountPoint: "/sys/fs/cgroup/cpu"))
        )
        let files = [
            "/sys/fs/cgroup/cpu/kiosk/app/cpu.cfs_quota_us": "-1\n",
            "/sys/fs/cgroup/cpu/kiosk/app/cpu.cfs_period_us": "100000\n",
            "/sys/fs/cgroup/cpu/kiosk/cpu.cfs_quota_us": "5000\n",
            "/sys/fs/cgroup/cpu/kiosk/cpu.cfs_period_us": "100000\n",
            "/sys/fs/cgroup/cpu/cpu.cfs_quota_us": "-1\n",
            "/sys/fs/cgroup/cpu/cpu.cfs_period_us": "100000\n",
        ]
        let limit = CPUQuotaLimit.tightest(in: groups, read: { files[$0] })
        #expect(limit == CPUQuotaLimit(cores: 0.05, period: 0.1))
    }

    @Test func aV2GroupReadsCpuMaxAndMaxMeansNone() {
        let groups = CgroupCPUGroup.groups(mountinfo: Self.v2Mounts, cgroup: "0::/system.slice/kiosk.service\n")
        #expect(
            groups == [
                CgroupCPUGroup(
                    version: 2, directory: "/sys/fs/cgroup/system.slice/kiosk.service", mountPoint: "/sys/fs/cgroup")
            ])
        var files = [
            "/sys/fs/cgroup/system.slice/kiosk.service/cpu.max": "20000 50000\n",
            "/sys/fs/cgroup/system.slice/cpu.max": "max 100000\n",
        ]
        #expect(CPUQuotaLimit.tightest(in: groups, read: { files[$0] }) == CPUQuotaLimit(cores: 0.4, period: 0.05))
        files["/sys/fs/cgroup/system.slice/kiosk.service/cpu.max"] = "max 100000\n"
        #expect(CPUQuotaLimit.tightest(in: groups, read: { files[$0] }) == nil)
    }

    @Test func aContainerSeesItsOwnGroupAsTheMountsTop() {
        // Inside a container the mount shows the hierarchy from the container's group: the
        // limit set on it is in the mount's own directory.
        let mounts = "40 30 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
        let groups = CgroupCPUGroup.groups(mountinfo: mounts, cgroup: "0::/docker/abc\n")
        #expect(groups == [CgroupCPUGroup(version: 2, directory: "/sys/fs/cgroup", mountPoint: "/sys/fs/cgroup")])
        let limit = CPUQuotaLimit.tightest(in: groups, read: { $0 == "/sys/fs/cgroup/cpu.max" ? "150000 100000" : nil })
        #expect(limit == CPUQuotaLimit(cores: 1.5, period: 0.1))
        // A group the mount does not show (another container's) is not guessed at.
        #expect(CgroupCPUGroup.groups(mountinfo: mounts, cgroup: "0::/other\n").isEmpty)
    }

    @Test func noCpuHierarchyOrUnreadableFilesMeanNoQuota() {
        #expect(
            CgroupCPUGroup.groups(
                mountinfo: "34 25 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", cgroup: "4:memory:/\n"
            ).isEmpty)
        let groups = CgroupCPUGroup.groups(mountinfo: Self.v1Mounts, cgroup: "1:cpu:/a\n")
        #expect(CPUQuotaLimit.tightest(in: groups, read: { _ in nil }) == nil)
        #expect(CPUQuotaLimit.tightest(in: groups, read: { _ in "garbage" }) == nil)
    }
}
