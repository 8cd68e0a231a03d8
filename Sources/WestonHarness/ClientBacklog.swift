import Foundation
import Glibc
import ScrollwayCSystem
import ScrollwayGeometry
import ScrollwayWaylandCore

/// How far a client is behind in reading what its compositor sent it, seen from outside the
/// client (a rig runs any client, in any toolkit): the bytes queued on its connections to the
/// compositor's socket that it has not read yet, as the kernel's socket diagnostics report
/// them. A client that keeps up reads its connection within a frame; one that is stopped, hung
/// or busy for longer leaves its input queued there, and the compositor cannot tell (it only
/// writes). The client's own children count too (a client started through a shell script).
/// The connections found are remembered, and looked for again only when one is gone.
public final class ClientBacklog {
    /// The process the rig started.
    public let pid: pid_t
    /// The compositor's listening socket (`$XDG_RUNTIME_DIR/wayland-N`): the kernel names each
    /// connection the compositor accepted with its listener's path.
    public let socketPath: String

    /// The client's connections to `socketPath`, by inode, as last found.
    private var connections: [UInt32] = []

    public init(client pid: pid_t, socketPath: String) {
        self.pid = pid
        self.socketPath = socketPath
    }

    /// Bytes the compositor sent that the client has not read, over every connection it or a
    /// process it started holds to `socketPath`; nil when it holds none (not connected yet, or
    /// gone).
    public func unread() -> Int? {
        if !connections.isEmpty, let total = unread(on: connections) { return total }
        connections = findConnections()
        return connections.isEmpty ? nil : unread(on: connections)
    }

    /// The unread bytes over `inodes`; nil when one of them is gone (closed, or the client ended).
    private func unread(on inodes: [UInt32]) -> Int? {
        var total = 0
        for inode in inodes {
            var socket = sw_unix_socket()
            guard sw_unix_socket_info(inode, &socket) == 0 else { return nil }
            total += Int(socket.unread)
        }
        return total
    }

    /// The sockets of the client and its descendants whose other end the compositor accepted
    /// on `socketPath`.
    private func findConnections() -> [UInt32] {
        var found: [UInt32] = []
        for process in [pid] + Self.descendants(of: pid) {
            for inode in Self.socketInodes(of: process) {
                var mine = sw_unix_socket()
                guard sw_unix_socket_info(inode, &mine) == 0, mine.peer != 0 else { continue }
                var theirs = sw_unix_socket()
                if sw_unix_socket_info(mine.peer, &theirs) == 0, Self.path(of: &theirs) == socketPath {
                    found.append(inode)
                }
            }
        }
        return found
    }

    /// Waits until the client has read everything the compositor sent it (or holds no
    /// connection), polling every millisecond, for at most `limit` seconds; returns how long it
    /// waited and what was still unread then (0 when it caught up).
    public func waitUntilRead(limit: Double) -> (waited: Double, unread: Int) {
        let start = Deadline.now
        while true {
            let left = unread() ?? 0
            let waited = Deadline.now - start
            if left == 0 || waited >= limit { return (waited, left) }
            RealTimePacer.sleep(0.001)
        }
    }

    // MARK: /proc

    /// The path of a socket's address, as a String ("" for none).
    private static func path(of socket: inout sw_unix_socket) -> String {
        withUnsafeBytes(of: &socket.path) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The inodes of `pid`'s sockets ("socket:[inode]" links in /proc/pid/fd).
    static func socketInodes(of pid: pid_t) -> [UInt32] {
        let dir = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return entries.compactMap { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + entry),
                target.hasPrefix("socket:["), target.hasSuffix("]")
            else { return nil }
            return UInt32(target.dropFirst("socket:[".count).dropLast())
        }
    }

    /// Every process below `pid` (its children, theirs, and so on), from /proc's parent links.
    static func descendants(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var children: [pid_t: [pid_t]] = [:]
        for entry in entries {
            guard let child = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // "pid (comm) state ppid …": the comm may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { children[parent, default: []].append(child) }
        }
        var found: [pid_t] = []
        var next = children[pid] ?? []
        while let p = next.popLast() {
            found.append(p)
            next += children[p] ?? []
        }
        return found
    }
}
