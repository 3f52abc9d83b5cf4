import ActionFlowBackend
import Foundation
import Testing

@Suite struct BundledResourcesTests {
    @Test func defaultProjectIsShipped() throws {
        let text = try String(contentsOf: BundledResources.defaultProjectFile, encoding: .utf8)
        #expect(text.contains("demo-actionflow"))
    }
}
