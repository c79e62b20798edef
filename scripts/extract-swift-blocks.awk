# Extracts the ```swift blocks of Markdown files into one Swift target each, for scripts/check-readme.sh (which
# documents the conventions). POSIX awk (Debian's mawk included).
#
#   awk -v out=DIR -f scripts/extract-swift-blocks.awk README.md Sources/*/*.docc/*.md
#
# For each checked block writes DIR/Sources/<Target>/Block.swift (and Prelude.swift when its document has a
# prelude before it), and one line to DIR/targets.tsv: target, kind (library or test), trait (or -), where.
# Package.swift fragments go to DIR/Manifests/<Target>/fragment.swift (a line to DIR/manifests.tsv).
# Blocks marked <!-- no-check --> are listed in DIR/skipped.tsv.

function reset_document() {
    in_fence = 0
    in_swift = 0
    marker = ""
    prelude = ""
    block_index = 0
    doc = FILENAME
    sub(/^.*\//, "", doc)
    sub(/\.md$/, "", doc)
    gsub(/[^A-Za-z0-9]/, "_", doc)
}

function location(line) {
    return "#sourceLocation(file: \"" FILENAME "\", line: " line ")\n"
}

# Whether a line at column 0 starts a declaration that stays at file scope.
function starts_declaration(s) {
    if (s ~ /^@[A-Za-z_]/) return 1
    return s ~ /^((public|private|fileprivate|internal|package|final|nonisolated|indirect)[ ]+)*(struct|enum|func|extension|actor|class|protocol|typealias)[ ]/
}

# The line of the `#endif` that closes the `#if` at line `i` when everything in between is an import, else 0.
function import_group_end(i,    j) {
    for (j = i + 1; j <= n; j++) {
        if (L[j] ~ /^#endif/) return j
        if (!(L[j] ~ /^import[ ]+[A-Za-z_]/ || L[j] ~ /^#(else|elseif)/)) return 0
    }
    return 0
}

function count(s, chars,    t) {
    t = s
    return gsub(chars, "", t)
}

function emit_block(    i, j, s, where, imports, seen, decls, stmts, mode, prev, in_decl, has_stmt, kind, trait, target, dir, file, text, opens) {
    block_index++
    target = sprintf("%s_%02d", doc, block_index)
    where = FILENAME ":" block_start
    if (marker == "no-check") {
        print target "\t" where >> (out "/skipped.tsv")
        return
    }
    text = ""
    for (i = 1; i <= n; i++) text = text L[i] "\n"
    if (n > 0 && L[1] ~ /^\/\/ *Package\.swift/) {
        dir = out "/Manifests/" target
        system("mkdir -p '" dir "'")
        printf "%s", text > (dir "/fragment.swift")
        close(dir "/fragment.swift")
        print target "\t" where >> (out "/manifests.tsv")
        return
    }
    kind = "library"
    trait = "-"
    imports = ""
    decls = ""
    stmts = ""
    prev = ""
    in_decl = 0
    has_stmt = 0
    for (i = 1; i <= n; i++) {
        s = L[i]
        # `#if canImport(FoundationNetworking)` around imports: the whole group is hoisted with the imports.
        if (s ~ /^#if[ ]/ && import_group_end(i) > 0) {
            for (j = i; j <= import_group_end(i); j++) imports = imports L[j] "\n"
            i = import_group_end(i)
            prev = ""
            continue
        }
        if (s ~ /^import[ ]+[A-Za-z_]/) {
            if (!(s in seen)) { imports = imports s "\n"; seen[s] = 1 }
            if (s ~ /^import[ ]+(Testing|XCTest)[ ]*$/) kind = "test"
            if (s ~ /^import[ ]+AsyncHTTPClient/) trait = "AsyncHTTPClient"
            prev = ""
            continue
        }
        if (s ~ /AsyncHTTPClientTransport/) trait = "AsyncHTTPClient"
        if (in_decl) {
            mode = "D"
            if (s ~ /^}/) in_decl = 0
        } else if (starts_declaration(s)) {
            mode = "D"
            opens = count(s, "[{]")
            # A declaration ends on this line when its braces balance here (or it is a typealias); otherwise at the
            # next line that starts with `}`.
            if (!(s ~ /typealias[ ]/ || (opens > 0 && opens == count(s, "[}]")))) in_decl = 1
        } else if (s ~ /^[ \t]*$/ || s ~ /^[ \t]*\/\//) {
            mode = (prev == "") ? "S" : prev
        } else {
            mode = "S"
            has_stmt = 1
        }
        if (mode == "D") {
            if (prev != "D") decls = decls location(block_start + i - 1)
            decls = decls s "\n"
        } else {
            if (prev != "S") stmts = stmts location(block_start + i - 1)
            stmts = stmts s "\n"
        }
        prev = mode
    }
    dir = out "/Sources/" target
    system("mkdir -p '" dir "'")
    file = dir "/Block.swift"
    printf "%s\n", imports > file
    if (marker == "prelude" || !has_stmt) {
        # A prelude's statements (`let session = …`) are globals that the document's later blocks use.
        printf "%s%s#sourceLocation()\n", decls, stmts > file
    } else {
        if (decls != "") printf "%s#sourceLocation()\n", decls > file
        printf "func example_%d() async throws {\n%s#sourceLocation()\n}\n", block_index, stmts > file
    }
    close(file)
    if (prelude != "" && marker != "standalone") {
        printf "%s", prelude > (dir "/Prelude.swift")
        close(dir "/Prelude.swift")
    }
    if (marker == "prelude") prelude = imports "\n" decls stmts "#sourceLocation()\n"
    print target "\t" kind "\t" trait "\t" where >> (out "/targets.tsv")
}

FNR == 1 { reset_document() }

in_fence {
    if ($0 ~ /^[ \t]*```[ \t]*$/) {
        if (in_swift) emit_block()
        in_fence = 0
        in_swift = 0
        marker = ""
    } else if (in_swift) {
        line = $0
        # Strip the fence's own indentation (a block inside a list item).
        if (substr(line, 1, indent) ~ /^[ \t]*$/) line = substr(line, indent + 1)
        L[++n] = line
    }
    next
}

/^[ \t]*```/ {
    in_fence = 1
    in_swift = ($0 ~ /^[ \t]*```swift[ \t]*$/)
    match($0, /^[ \t]*/)
    indent = RLENGTH
    n = 0
    block_start = FNR + 1
    next
}

/^[ \t]*<!--[ \t]*no-check[ \t]*-->[ \t]*$/ { marker = "no-check"; next }
/^[ \t]*<!--[ \t]*prelude[ \t]*-->[ \t]*$/ { marker = "prelude"; next }
/^[ \t]*<!--[ \t]*standalone[ \t]*-->[ \t]*$/ { marker = "standalone"; next }
/^[ \t]*$/ { next }
{ marker = "" }
