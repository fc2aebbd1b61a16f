import ArgumentParser
import UtterCLI

UtterCommand.main()
