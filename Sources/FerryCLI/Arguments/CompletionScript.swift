/// `ferry --completions bash|zsh|fish`: a completion script for the shell, made from ``OptionSpec/all`` so that
/// it lists every flag `ferry` has.
enum CompletionScript {
    /// The shells with a script.
    enum Shell: String, Sendable, CaseIterable {
        case bash, zsh, fish
    }

    /// The values some options take, offered after them.
    static let choices: [String: [String]] = [
        "auth-type": ["basic", "bearer"],
        "completions": Shell.allCases.map(\.rawValue),
        "method": ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        "print": ["H", "B", "h", "b", "m", "HBhb", "hb", "Hh"],
    ]

    /// The script.
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    private static var words: [String] {
        OptionSpec.all.flatMap { spec in (spec.short.map { ["-\($0)"] } ?? []) + ["--\(spec.long)"] }
    }

    private static var bash: String {
        let valued = OptionSpec.all.filter { $0.value != nil }
            .flatMap { spec in (spec.short.map { ["-\($0)"] } ?? []) + ["--\(spec.long)"] }
        var cases = ""
        for (long, values) in choices.sorted(by: { $0.key < $1.key }) {
            let short = OptionSpec.all.first { $0.long == long }?.short.map { "|-\($0)" } ?? ""
            cases += "        --\(long)\(short))\n"
            cases += "            COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\"))\n"
            cases += "            return ;;\n"
        }
        return """
            # bash completion for ferry (ferry --completions bash)
            _ferry() {
                local cur prev
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                case "$prev" in
            \(cases)        \(valued.joined(separator: "|")))
                        COMPREPLY=($(compgen -f -- "$cur"))
                        return ;;
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "\(words.joined(separator: " "))" -- "$cur"))
                elif [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W "demo ws" -- "$cur"))
                fi
            }
            complete -o default -F _ferry ferry

            """
    }

    private static var zsh: String {
        var lines: [String] = []
        for spec in OptionSpec.all {
            let help = spec.long.replacingOccurrences(of: "-", with: " ")
            var action = ""
            if let value = spec.value {
                let values = choices[spec.long].map { "(\($0.joined(separator: " ")))" } ?? "_files"
                let message = value.filter { $0 != "'" }.replacingOccurrences(of: ":", with: "\\:")
                action = ":\(message):\(values)"
            }
            if let short = spec.short {
                lines.append("'(-\(short) --\(spec.long))'{-\(short),--\(spec.long)}'[\(help)]\(action)'")
            } else {
                lines.append("'--\(spec.long)[\(help)]\(action)'")
            }
        }
        return """
            #compdef ferry
            # zsh completion for ferry (ferry --completions zsh)
            _ferry() {
                _arguments -s \\
                    \(lines.joined(separator: " \\\n        "))  \\
                    '1:method, URL, demo or ws:(demo ws GET POST PUT PATCH DELETE)' \\
                    '*:request item:_files'
            }
            compdef _ferry ferry

            """
    }

    private static var fish: String {
        var lines = [
            "# fish completion for ferry (ferry --completions fish)",
            "complete -c ferry -n '__fish_use_subcommand' -a demo -d 'a tour against an embedded server'",
            "complete -c ferry -n '__fish_use_subcommand' -a ws -d 'a WebSocket: lines in, messages out'",
        ]
        for spec in OptionSpec.all {
            var line = "complete -c ferry"
            if let short = spec.short { line += " -s \(short)" }
            line += " -l \(spec.long)"
            if spec.value != nil {
                line += " -r"
                if let values = choices[spec.long] { line += " -f -a '\(values.joined(separator: " "))'" }
            }
            line += " -d '\(spec.long.replacingOccurrences(of: "-", with: " "))'"
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
