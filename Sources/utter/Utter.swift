import ArgumentParser
import UtterCLI

@main
struct Utter {
    static func main() async {
        await UtterCommand.main()
    }
}
