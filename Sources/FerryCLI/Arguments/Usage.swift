import Ferry

/// `ferry --help` and `ferry demo --help`.
enum Usage {
    /// The first lines, also shown under a usage error.
    static let synopsis = """
        usage: ferry [METHOD] URL [ITEM...] [OPTIONS]
               ferry ws URL [Header:value | name==value ...] [OPTIONS]
               ferry demo [--help]
        """

    /// `ferry ws --help`.
    static let webSocketText = """
        usage: ferry ws URL [Header:value | name==value ...] [OPTIONS]

        Opens a WebSocket (as websocat or wscat do) and connects it to the terminal or a pipe: each line of standard
        input goes out as a text message, each message from the server is printed on a line of its own on standard
        output. The 101 response head and notes go to standard error, as for any ferry request (-q hides them).

        URL     ws://, wss://, http:// (for ws://) or https:// (for wss://); ferry's shorthand works too:
                `ferry ws :8080/chat` is ws://localhost:8080/chat.
        Items   Header:value adds a header to the upgrade request, name==value a query parameter; nothing else.

        Messages:
          a text message is printed as it is, followed by a newline; a binary message as one line of base64 (a
          note on standard error says so, once). A line read is sent without its newline (and without a \r
          before it, in text).

        Ending:
          end of input (Ctrl-D, or the end of a pipe)   closes with 1000 and waits for the server's answer
          Ctrl-C                                        closes with 1001 (a second Ctrl-C quits at once)
          the server closes                             its close code and reason are printed on standard error

        Options:
              --protocol NAME          offer this subprotocol (repeat for more, in order of preference); -v
                                       prints the one the server chose
              --binary                 send each line as a binary message
              --max-message-size BYTES the largest message accepted (1M by default; 64k, 16M work), past which
                                       the socket closes with 1009
          -a, --auth USER[:PASS]|TOKEN, -A, --auth-type basic|bearer   credentials for the upgrade request
              --session NAME|PATH, --session-read-only NAME|PATH       headers and cookies, as for requests
          -H, --header 'Name: value'   a header for the upgrade request
          -v, --verbose                show the upgrade request too (its Sec-WebSocket-Key is made when
                                       connecting) and the subprotocol chosen
          -q, --quiet                  nothing on standard error but errors
          -p, --print Hhb              H upgrade request, h 101 response, b messages; all on standard output
              --offline                print the upgrade request and send nothing
              --timeout SECONDS        give up when the handshake takes longer (60 by default)
              --proxy URL, --cacert FILE, --cert FILE, --key FILE, --no-verify
                                       as for requests: the socket goes through the proxy (an HTTP CONNECT
                                       tunnel, or SOCKS5) and wss takes the TLS settings (in a ferry built with
                                       the AsyncHTTPClient trait; the default build refuses what URLSession
                                       cannot do on Linux)

        Not for ferry ws: body items, --raw, -j, -f, --multipart, -X, -d, -o, -c, -S, -F, --max-time, --cache,
        --curl, --timeline, and --unix-socket.

        Exit status:
          0   the socket closed with 1000 (or without a code), whoever closed it
          1   the server closed with another code, the connection was lost, or a message was refused (1007 text
              that is not UTF-8, 1009 too large, 1002 protocol error)
          2   usage, a handshake timeout, or a ferry built without the WebSocket trait (the message says how to
              build one: swift build -c release --traits WebSocket --product ferry)
          3, 4, 5   the server answered the upgrade with a 3xx, 4xx or 5xx: no socket, so always (as with -d)
          130 interrupted with Ctrl-C (after closing with 1001)

        Examples:
          ferry ws :8080/echo
          echo hello | ferry ws wss://echo.example.com/ --protocol chat.v2 Authorization:'Bearer x'
          ferry ws -v --session work example.com/live < commands.txt > replies.txt
        """

    /// `ferry demo --help`.
    static let demoText = """
        usage: ferry demo [--no-color]

        A short tour of Ferry against a server embedded in the process, on the loopback interface: nothing goes to
        the network. It fetches JSON, decodes a type, shows an error as a user reads it, follows redirects, times
        out exactly, prints a timeline, downloads a file with a progress bar and reads server-sent events.
        It exits 0 when every step worked, 1 otherwise.

          --help       this text
          --no-color   no colours
        """

    static let text = """
        \(synopsis)

        Sends one HTTP request with Ferry, with httpie's items, flags and exit codes. The response body goes to
        standard output on its own (pretty-printed and coloured when that is a terminal), the response head and a
        summary to standard error, so `ferry URL | jq .` sees only the body.

        URL     http:// is assumed: `localhost:8080/x`, `example.com`; `:8080/x` is http://localhost:8080/x.
        METHOD  GET, or POST when there is a body. Any method in capitals, or a known one in any case.

        Request items, after the URL (a backslash in the name escapes a separator or a bracket):
          name=value        JSON string field ({"name":"value"}), or form field with --form
          name:=json        raw JSON field: n:=1 ok:=true tags:='["a","b"]'
          name=@file        string field read from a file;  name:=@file  raw JSON field read from a file
          user[name]=Ada    nested JSON: user[tags][]=a appends, list[0]=x sets by index, []=x makes an array
          name==value       query parameter
          Header:value      request header; `Header:` with no value removes it (User-Agent:)
          name@file         file upload: the body becomes multipart/form-data

        Body:
          -j, --json                 data items as a JSON object (the default), and ask for JSON
          -f, --form                 data items urlencoded (application/x-www-form-urlencoded)
              --multipart            data items as multipart/form-data
              --raw TEXT|@FILE|@-    the body as is: text, a file's contents, or standard input
          -H, --header 'Name: value' a header (curl's -H)
          -X, --method METHOD        the method

        Authentication and sessions:
          -a, --auth USER[:PASS]|TOKEN   credentials; without :PASS the password is asked on a terminal
          -A, --auth-type basic|bearer   Basic (the default) or Bearer (-A bearer -a TOKEN)
              --session NAME|PATH        keep headers (Authorization too) and cookies between runs, in
                                         $XDG_CONFIG_HOME/ferry/sessions/HOST_PORT/NAME.json (~/.config), or PATH
              --session-read-only NAME|PATH   use a session without writing it back
              --offline                  print the request as it would be sent, and send nothing
          -I, --ignore-stdin             accepted for httpie's scripts: ferry reads standard input only for --raw @-

        Output:
          -p, --print HBhbm  print what is chosen, all on standard output: H request headers, B request body,
                             h response headers, b response body, m metadata (elapsed time)
          -h, --headers      the response headers only (--print h)
          -b, --body         the response body only (--print b)
          -m, --meta         the metadata only (--print m)
          -v, --verbose      show the request too, as sent (on standard error)
          -q, --quiet        nothing on standard error but errors
              --timeline     the request's phases as a waterfall, on standard error
              --curl         print the equivalent curl command and send nothing
              --no-color     no colours (also NO_COLOR=1 or TERM=dumb)

        Transfers:
          -d, --download     save the body to a file named by the server or the URL (never replacing one:
                             name-1.ext), with a progress bar on standard error on a terminal
          -o, --output FILE  save the body to FILE (replaced); FILE appears only when complete and 2xx
          -c, --continue     resume a broken-off -o download from FILE.part
          -S, --stream       print the body as it arrives: line by line, or event by event (text/event-stream)
          -F, --follow       follow redirects (not followed by default: the 3xx is the answer)
              --max-redirects N   follow at most N redirects (implies --follow; 30 by default)
              --timeout SECONDS   give up when nothing moves for this long (60 by default)
              --max-time SECONDS  give up when the whole exchange takes longer
              --check-status      exit 3, 4 or 5 for a 3xx (not followed), 4xx or 5xx answer
              --cache DIR         keep an HTTP cache (RFC 9111) in DIR between runs: a fresh stored answer is
                                  printed (or saved with -o) without asking the server, a stale one is
                                  revalidated; the summary says which (not for --stream or a resumed -c)

        Connections (all honoured when ferry is built with the AsyncHTTPClient trait; URLSession refuses the rest):
              --proxy URL         through an HTTP (http://[user:pass@]host:port) or SOCKS5 (socks5://) proxy;
                                  without it, http_proxy, HTTPS_PROXY, ALL_PROXY and NO_PROXY as curl reads them
              --unix-socket PATH  to the server listening on this Unix domain socket
              --cacert FILE       trust only this CA certificate (PEM or DER)
              --cert FILE         offer this client certificate (PEM; its key too, unless --key)
              --key FILE          the client certificate's private key (PEM)
              --no-verify         accept any certificate (development only);  --verify  check it (the default)
              --pin sha256/BASE64 accept the server only if its chain has this public key (repeatable;
                                  URLSession on Apple platforms only: AsyncHTTPClient cannot check pins)

        WebSockets (ferry ws URL; ferry ws --help for the details):
              --protocol NAME     offer this subprotocol (repeatable)
              --binary            send each line of standard input as a binary message, not a text one
              --max-message-size BYTES   the largest message accepted from the server (1M by default)

              --completions bash|zsh|fish   print a shell completion script
              --help             this text;  --version  Ferry's version

        Exit status (httpie's):
          0   the exchange completed (whatever the status, without --check-status)
          1   another failure: no connection, connection lost, a file that could not be written, ...
          2   usage (bad option, item, URL or file), or a timeout (--timeout, --max-time)
          3   a 3xx answer not followed, with --check-status
          4   a 4xx answer, with --check-status (always with -d or -o)
          5   a 5xx answer, with --check-status (always with -d or -o)
          6   too many redirects (--max-redirects)
          130 interrupted with Ctrl-C (ferry ws)

        Examples:
          ferry :8080/get a==1
          ferry PUT example.com/users/1 name=Ada admin:=true user[tags][]=x X-Trace:42
          ferry -f POST localhost:8080/login user=ada password=secret
          ferry -a ada:secret --session work example.com/me
          ferry -d https://example.com/big.iso
          ferry --stream POST :8080/chat prompt=hello Accept:text/event-stream
          ferry ws :8080/chat --protocol chat.v1
          ferry demo
        """
}
