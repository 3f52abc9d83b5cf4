import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file mapped read-only rather than read: a 100 MB capture costs its pages only while they
/// are being read, and `release` gives back those already read.
struct MappedFile {
    let data: Data
    private let base: UnsafeMutableRawPointer?

    /// Why a file cannot be mapped: the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot read it: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(description: "cannot read it: \(String(cString: strerror(errno)))") }
        if info.st_mode & S_IFMT == S_IFDIR { throw Failure(description: "cannot read it: it is a folder") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            // A pipe (`<(...)`, /dev/stdin) cannot be mapped: read it whole.
            data = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()
            base = nil
            return
        }
        let size = Int(info.st_size)
        guard size > 0 else {
            data = Data()
            base = nil
            return
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw Failure(description: "cannot read it: \(String(cString: strerror(errno)))")
        }
        base = mapped
        data = Data(bytesNoCopy: mapped, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
    }

    /// Gives back the whole pages within `range`: read again, they come back from the file.
    func release(_ range: Range<Int>) {
        guard let base else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (range.lowerBound + page - 1) / page * page
        let end = min(range.upperBound, data.count) / page * page
        guard end > start else { return }
        _ = madvise(base + start, end - start, Int32(MADV_DONTNEED))
    }
}
