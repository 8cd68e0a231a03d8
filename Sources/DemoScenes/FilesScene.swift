import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// A file browser's sidebar and tree in a `ListView` named "main": a flat section of
    /// places, then an outline of a made-up disk whose folders open and close by their
    /// chevrons, Right and Left, or a screen reader. A folder's contents are made as it first
    /// opens (`snapshotForExpandingParent`), as an app reading a disk loads them; until then
    /// it holds one placeholder, so that it shows a chevron. The top folders and the folders
    /// in them start open: the tree runs some screens long.
    public static let files = Scene(
        name: "files",
        summary: "A folder tree: an outline whose folders open and close, their contents loaded as they open",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let list = addMainList(to: window, identifier: FileTree.identifier)
        window.retainedObjects.append(FileTree.makeSource(for: list))
    }
}

/// The files scene's made-up disk. A folder's contents follow from its path alone (a hash of
/// it picks how many folders and files it holds and their names), so the same folder always
/// holds the same things, at any depth, without a tree kept anywhere.
public enum FileTree {
    static let identifier = "file"
    /// The outline's section, after the places'.
    public static let disk = "Disk"
    public static let places = "Places"
    /// What the places section lists.
    public static let placeNames = ["Home", "Desktop", "Downloads", "Recent"]
    /// The folders at the top of the disk, in order.
    public static let topFolders = ["/Documents", "/Music", "/Pictures", "/Projects"]
    /// How deep folders go: one at this depth holds files only.
    static let deepest = 4
    static let folderNames = [
        "Archive", "Drafts", "Notes", "Old", "Receipts", "Reports", "Shared", "Summer", "Travel", "Work",
    ]
    static let fileNames = [
        ("Budget", "ods"), ("Letter", "odt"), ("Minutes", "txt"), ("Photo", "jpg"), ("Plan", "pdf"),
        ("Recording", "ogg"), ("Sketch", "png"), ("Summary", "md"), ("Table", "csv"), ("Ticket", "pdf"),
    ]

    /// What a folder holds, found on demand: a path ending in "/" plus this marks the
    /// placeholder an unopened folder holds.
    static let placeholder = "\u{2026}"

    /// The folders and then the files that folder `path` holds, as full paths.
    public static func contents(of path: String) -> (folders: [String], files: [String]) {
        let depth = path.split(separator: "/").count
        var h = hash(path)
        func next(_ n: Int) -> Int {
            h = h &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((h >> 33) % UInt64(n))
        }
        let folderCount = depth >= deepest ? 0 : 1 + next(depth == 1 ? 5 : 3)
        let fileCount = 1 + next(6)
        let start = next(folderNames.count)
        // Steps of 3 and 7 through ten names: never the same name twice.
        let folders = (0..<folderCount).map { path + "/" + folderNames[(start + $0 * 3) % folderNames.count] }
        let files = (0..<fileCount).map { i -> String in
            let (name, ext) = fileNames[(start + i * 7) % fileNames.count]
            return "\(path)/\(name) \(i + 1).\(ext)"
        }
        return (folders.sorted(), files)
    }

    /// Whether `path` is a folder (every folder's path is one `contents` makes as a folder, or
    /// a top folder: a file's name has an extension, and a placeholder is neither).
    public static func isFolder(_ path: String) -> Bool {
        let name = path.split(separator: "/").last ?? ""
        return !name.contains(".") && name != placeholder
    }

    /// The size shown under a file's name, from its path.
    static func size(of path: String) -> String {
        let kb = 1 + hash(path) % 4_000
        return kb >= 1_000 ? "\(kb / 1_000).\(kb % 1_000 / 100) MB" : "\(kb) KB"
    }

    /// FNV-1a of the path's bytes.
    static func hash(_ path: String) -> UInt64 {
        path.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }

    /// `folder`'s contents as an outline: its folders (each holding a placeholder until it is
    /// opened), then its files.
    public static func outline(of folder: String) -> SectionSnapshot<String> {
        var outline = SectionSnapshot<String>()
        let (folders, files) = contents(of: folder)
        outline.append(folders + files)
        for f in folders { outline.append([f + "/" + placeholder], to: f) }
        return outline
    }

    /// `folder`'s contents as an outline with the folders down to `levels` below it read and
    /// open (those under them hold their placeholders).
    public static func opened(_ folder: String, levels: Int) -> SectionSnapshot<String> {
        var tree = outline(of: folder)
        guard levels > 1 else { return tree }
        for f in tree.rootItems where isFolder(f) {
            tree.replace(childrenOf: f, using: opened(f, levels: levels - 1))
            tree.expand([f])
        }
        return tree
    }

    /// The scene's data source on `list`: the places, then the disk with its top folders and
    /// the folders in them open.
    @MainActor
    public static func makeSource(for list: ListView) -> ListDiffableDataSource<String, String> {
        let source = ListDiffableDataSource<String, String>(list: list) { list, _, path in
            let cell = list.dequeueReusableCell(withIdentifier: identifier)
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if path.hasSuffix("/" + placeholder) {
                cell.textLabel.text = "Loading\u{2026}"
            } else if isFolder(path) || !path.hasPrefix("/") {
                cell.textLabel.text = name
            } else {
                cell.textLabel.text = "\(name)\n\(size(of: path))"
            }
            return cell
        }
        source.titleForHeader = { $0 }
        // A folder opened for the first time reads its contents; one read before keeps them
        // (and which of its folders were open).
        source.sectionSnapshotHandlers.snapshotForExpandingParent = { folder, children in
            children.rootItems == [folder + "/" + placeholder] ? outline(of: folder) : children
        }
        var places = DataSourceSnapshot<String, String>()
        places.appendSections([Self.places])
        places.appendItems(placeNames)
        source.apply(places, animatingDifferences: false)
        var tree = SectionSnapshot<String>()
        tree.append(topFolders)
        for f in topFolders { tree.append(opened(f, levels: 2), to: f) }
        tree.expand(topFolders)
        source.apply(tree, to: disk, animatingDifferences: false)
        return source
    }
}
