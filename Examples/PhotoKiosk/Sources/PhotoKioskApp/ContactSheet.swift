import Scrollway

/// The kiosk's contact sheet: every photo as a thumbnail in a grid (`CollectionView` with a
/// `FlowLayout`), as many to a row as the screen holds; tapping one opens it in the pager.
/// Thumbnails (`Photo.thumbnail`) are drawn as their cells come into view, and cells are
/// reused, so a folder of hundreds of photos costs a screenful of cells.
@MainActor
final class ContactSheet: CollectionViewDataSource {
    static let identifier = "thumbnail"
    let photos: [Photo]
    let view: CollectionView

    init(photos: [Photo]) {
        self.photos = photos
        let layout = FlowLayout()
        layout.itemSize = Size(width: 180, height: 120)
        layout.minimumInteritemSpacing = 8
        layout.minimumLineSpacing = 8
        layout.sectionInset = EdgeInsets(top: 16, left: 16, bottom: 16, right: 16)
        view = CollectionView(layout: layout)
        view.name = "sheet"
        view.backgroundColor = .black
        view.fillsSuperview = true
        view.allowsMouseDrag = true
        view.register(Self.identifier) { Thumbnail() }
        view.dataSource = self
        view.reloadData()
    }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        photos.count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
        let cell = collectionView.dequeueReusableCell(withIdentifier: Self.identifier) as! Thumbnail
        let photo = photos[path.item]
        cell.imageView.image = photo.thumbnail
        cell.accessibilityLabel = photo.spokenName
        return cell
    }
}

/// A photo, fitted to its cell on black.
final class Thumbnail: CollectionCell {
    let imageView = ImageView()

    init() {
        super.init(reuseIdentifier: ContactSheet.identifier)
        normalColor = Color(rgb: 24, 24, 26)
        selectedColor = Color(rgb: 70, 110, 170)
        imageView.contentMode = .aspectFit
        imageView.fillsSuperview = true
        imageView.accessibilityRole = .image
        contentView.fillInsets = EdgeInsets(top: 4, left: 4, bottom: 4, right: 4)
        contentView.addSubview(imageView)
    }
}
