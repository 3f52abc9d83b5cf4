@testable import ActionFlowCommands
import ActionFlowModel
import Testing

/// `bench code-order`: which functions go into the release link's ordering file.
@Suite("Code order for the release link")
struct CodeOrderTests {
    @Test("every function callgrind names is found, defined or called, also when its later mentions give only the id")
    func functionNamesFromCallgrind() {
        let output = """
        version: 1
        ob=(1) /tmp/actionflow
        fl=(1) ???
        fn=(1) $s13ActionFlowTUI8MainViewO6renderyyF
        0 120
        cfn=(2) $s13ActionFlowTUI9FrameDiffO4runsyyF
        calls=1 0
        0 80
        fn=(2)
        0 80
        cfn=(3) swift_retain
        calls=4 0
        0 12
        fn=(1)
        0 5
        """
        #expect(BenchCodeOrderCommand.functionNames(callgrindOutput: output)
            == ["$s13ActionFlowTUI8MainViewO6renderyyF", "$s13ActionFlowTUI9FrameDiffO4runsyyF", "swift_retain"])
    }

    @Test("code defined once is kept, and local helpers only the project's objects define; other helpers and data are left out")
    func orderable() {
        let program = """
        0000000000892fd0 T $s13ActionFlowTUI8MainViewO6renderyyF
        0000000000f840b0 t objectdestroy.5Tm
        0000000000f9a0b0 t objectdestroy.5Tm
        0000000000f9a100 t $sSSSgWOcTm
        0000000000f9a200 t $sSSSgWOcTm
        0000000000f9a300 t $sSaySSGWOy
        0000000000f9a400 t $sSaySSGWOy
        0000000002617000 d $s13ActionFlowTUI8MainViewO6renderyyFTq
        0000000000893000 t $s13ActionFlowTUI9FrameDiffO4runsyyF
        0000000002617100 r $s13ActionFlowTUI9FrameDiffO4runsyyF
                         U write
        """
        // Both copies of `$sSSSgWOcTm` are the project's; one `$sSaySSGWOy` is a library's.
        let project = """

        MainView.swift.o:
        0000000000000010 T $s13ActionFlowTUI8MainViewO6renderyyF
        0000000000000020 t $sSSSgWOcTm
        0000000000000030 t $sSaySSGWOy

        Frame.swift.o:
        0000000000000020 t $sSSSgWOcTm
        """
        #expect(BenchCodeOrderCommand.orderable(nmOutput: program, projectNMOutput: project)
            == ["$s13ActionFlowTUI8MainViewO6renderyyF", "$sSSSgWOcTm"])
    }

    @Test("the runtime's metadata wait queues, task suspension and escalation are ordered even when the traced run took none of them; Swift code is not")
    func timingDependentRuntime() {
        let defined: Set<String> = [
            "_ZN5swift26TaskDependencyStatusRecord23performEscalationActionENS_11JobPriorityES1_",
            "swift_task_escalate",
            "_ZN5swift15AtomicWaitQueueINS_17MetadataWaitQueueENS_13IndirectMutexEE6Worker8withLockIZNS_1fEEEvT_",
            "$ss33withTaskPriorityEscalationHandler9operation02onC9Escalated9isolationxxyYaq_YKXE_yScP_ScPtYbXEScA_pSgYitYaq_YKs5ErrorR_r0_lF",
            "swift_retain",
        ]
        #expect(BenchCodeOrderCommand.timingDependentRuntime(in: defined) == [
            "_ZN5swift26TaskDependencyStatusRecord23performEscalationActionENS_11JobPriorityES1_",
            "swift_task_escalate",
            "_ZN5swift15AtomicWaitQueueINS_17MetadataWaitQueueENS_13IndirectMutexEE6Worker8withLockIZNS_1fEEEvT_",
        ])
    }

    @Test("the project's objects are found beside the program, every module's")
    func projectObjects() throws {
        let objects = BenchCodeOrderCommand.projectObjects(in: try #require(ProgramLocation.folder))
        for module in ["ActionFlowTUI", "ActionFlowModel"] {
            #expect(objects.contains { $0.contains("/\(module).build/") && $0.hasSuffix(".o") }, "\(module)")
        }
    }
}
