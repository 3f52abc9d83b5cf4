import FuzzChecks
import Foundation

// The libFuzzer entry points. The target is chosen by ACTIONFLOW_FUZZ_TARGET (`scripts/fuzz`
// sets it); a broken invariant stops the run like a crash, with the input saved by libFuzzer.

nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selected else { return 0 }
    let input = data.map { Data(bytes: $0, count: size) } ?? Data()
    let violations = target.checkBlocking(input)
    if !violations.isEmpty {
        FileHandle.standardError.write(Data(("\n==== \(target.name): broken invariant\n" + violations.map { "  - \($0)" }.joined(separator: "\n") + "\n").utf8))
        abort()
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

// SwiftPM links an executable's entry point as `<module>_main`; libFuzzer's own `main` would
// need a top-level Swift `main` instead, so this one hands over to libFuzzer's driver.
@_cdecl("ActionFlowFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    let name = ProcessInfo.processInfo.environment["ACTIONFLOW_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.named(name) else {
        let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("set ACTIONFLOW_FUZZ_TARGET to one of: \(names)\n".utf8))
        return 2
    }
    selected = target
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOne)
}
