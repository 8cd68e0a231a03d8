import Foundation
import PhotoKioskApp
import Scrollway
import Testing

/// Photo files that are not what their names say, or more than memory holds: each is reported
/// with its name, and neither keeps a decoder waiting nor ends the kiosk.
@Suite struct PhotoFileTests {
    func folder(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("photofile-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// What making `path`'s thumbnail throws, said as the kiosk reports it; nil when it is not
    /// done within `seconds` (the thread is left waiting).
    func thumbnailError(_ path: String, within seconds: Double = 10) -> String? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var said = "no error"
        Thread.detachNewThread {
            do {
                _ = try Photo.makeThumbnail(path)
            } catch {
                said = "\(error)"
            }
            done.signal()
        }
        return done.wait(timeout: .now() + seconds) == .timedOut ? nil : said
    }

    /// A named pipe, a directory, a link to a device and a file larger than any photo, each
    /// given a photo's name, are named as what they are, and the large one is not read:
    /// Foundation's read had said "You don't have permission" of the pipe and the device,
    /// "error 256" of the directory, and taken the large file whole into memory.
    @Test func aPathThatIsNoPhotoFileIsNamedAsWhatItIs() throws {
        let dir = try folder("special")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipe = dir + "/pipe.jpg"
        #expect(mkfifo(pipe, 0o600) == 0)
        let said = thumbnailError(pipe)
        if said == nil {
            // Lets a reader waiting for a writer go: one comes and leaves at once.
            let fd = open(pipe, O_WRONLY)
            if fd >= 0 { close(fd) }
        }
        #expect(said == "cannot read '\(pipe)': a pipe, not an image file")
        try FileManager.default.createDirectory(atPath: dir + "/folder.png", withIntermediateDirectories: false)
        #expect(
            thumbnailError(dir + "/folder.png") == "cannot read '\(dir)/folder.png': a directory, not an image file")
        try FileManager.default.createSymbolicLink(atPath: dir + "/zero.png", withDestinationPath: "/dev/zero")
        #expect(thumbnailError(dir + "/zero.png") == "cannot read '\(dir)/zero.png': a device, not an image file")
        // Sparse: its size is said, its bytes never written.
        let large = dir + "/large.jpg"
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        #expect(truncate(large, off_t(ImageFile.maximumFileBytes + 1)) == 0)
        #expect(
            thumbnailError(large)
                == "cannot read '\(large)': \(ImageFile.maximumFileBytes + 1) bytes, more than an image file may have "
                + "(\(ImageFile.maximumFileBytes))")
    }

    /// A 16384×16384 PNG (the largest a decode may make) with too little memory for its canvas
    /// is skipped with the reason, the kiosk going on: its decode's straight copy was a Swift
    /// array, allocated before the canvas, whose failure trapped and ended the process. Run
    /// under a limit on address space the kiosk starts in, below the picture's gigabyte.
    @MainActor @Test func aPhotoTooLargeForMemoryIsSkippedNotATrap() throws {
        let dir = try folder("memory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(Self.blackPNG(side: 16384)).write(to: URL(fileURLWithPath: dir + "/huge.png"))
        let out = dir + "/sheet.png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let kiosk = try PhotoKioskExecutableTests().executable()
        process.arguments = ["-c", "ulimit -v 800000; exec '\(kiosk)' '\(dir)' --png '\(out)'"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "\(said)")
        #expect(said.contains("skipping '\(dir)/huge.png': cannot allocate a 16384×16384 pixel canvas"), "\(said)")
    }

    /// A PNG of `side`² black grey pixels, its zeros deflated (fixed Huffman codes: a literal
    /// zero, then copies of 258 bytes at distance 1) into a couple of megabytes.
    static func blackPNG(side: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var bits = 0
        var count = 0
        func put(_ value: Int, _ n: Int, reversed: Bool = false) {
            for i in 0..<n {
                let bit = reversed ? value >> (n - 1 - i) & 1 : value >> i & 1
                bits |= bit << count
                count += 1
                if count == 8 {
                    out.append(UInt8(bits))
                    (bits, count) = (0, 0)
                }
            }
        }
        let total = side * (side + 1)  // each row a filter byte and a sample a pixel
        put(1, 1)  // the last block
        put(1, 2)  // fixed codes
        put(0x30, 8, reversed: true)  // literal 0
        var left = total - 1
        while left >= 258 {
            put(0xC5, 8, reversed: true)  // length 258 (code 285)
            put(0, 5, reversed: true)  // distance 1
            left -= 258
        }
        for _ in 0..<left { put(0x30, 8, reversed: true) }
        put(0, 7, reversed: true)  // end of block
        if count > 0 { out.append(UInt8(bits)) }
        // Adler-32 of zeros: 1, and the count.
        out += bigEndian(total % 65521 << 16 | 1)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = bigEndian(side) + bigEndian(side) + [8, 0, 0, 0, 0]
        for (type, data) in [("IHDR", header), ("IDAT", out), ("IEND", [])] {
            let body = Array(type.utf8) + data
            file += bigEndian(data.count) + body + bigEndian(crc(body))
        }
        return file
    }

    static func bigEndian(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

    static func crc(_ bytes: [UInt8]) -> Int {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return Int(c ^ 0xFFFF_FFFF)
    }
}
