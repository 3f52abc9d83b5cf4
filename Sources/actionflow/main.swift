import ActionFlowCommands

// The commands live in ActionFlowCommands so that tests link them without this executable,
// which a release build links statically (Package.swift).
runActionFlow()
