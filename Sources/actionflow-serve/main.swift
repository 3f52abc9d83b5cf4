import ActionFlowCommands
import ActionFlowServeCommands

// `actionflow serve` hands over to this program (ServerProgram); it takes the same arguments as
// `actionflow` and runs every other command the same way.
ServerCommands.install()
runActionFlow()
