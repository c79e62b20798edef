import Ferry

/// `ferry --help`.
enum Usage {
    /// The first lines, also shown under a usage error.
    static let synopsis = """
        usage: ferry [METHOD] URL [ITEM...] [OPTIONS]
               ferry demo
        """

    static let text = """
        \(synopsis)

        Sends one HTTP request with Ferry. The response body goes to standard output on its own (pretty-printed
        and coloured when that is a terminal), the response head and a summary to standard error, so
        `ferry URL | jq .` sees only the body.

        URL     http:// is assumed: `localhost:8080/x`, `example.com`; `:8080/x` is http://localhost:8080/x.
        METHOD  GET, or POST when there is a body. Any method in capitals, or a known one in any case.

        Request items, after the URL (a backslash in the name escapes a separator):
          name=value        JSON string field ({"name":"value"}), or form field with --form
          name:=json        raw JSON field: n:=1 ok:=true tags:='["a","b"]'
          name=@file        string field read from a file;  name:=@file  raw JSON field read from a file
          name==value       query parameter
          Header:value      request header; `Header:` with no value removes it (User-Agent:)
          name@file         file upload: the body becomes multipart/form-data

        Body:
          -d, --data TEXT|@FILE|@-   the body as is: text, a file's contents, or standard input
              --json TEXT            a JSON body (checked)
          -f, --form                 fields urlencoded (application/x-www-form-urlencoded)
              --multipart            fields as multipart/form-data
          -F, --field NAME=VALUE|NAME@FILE
                                     a multipart field or file (curl's -F)
          -H, --header 'Name: value' a header (curl's -H)
          -X, --method METHOD        the method

        Output:
          -p, --print HBhb   print what is chosen, all on standard output: H request headers, B request body,
                             h response headers, b response body
          -v, --verbose      show the request too (on standard error)
          -q, --quiet        nothing on standard error but errors
              --timeline     the request's phases as a waterfall, on standard error
              --curl         print the equivalent curl command and send nothing
              --no-color     no colours (also NO_COLOR=1 or TERM=dumb)

        Transfers:
          -o, --output FILE  save the body to FILE, with a progress bar on standard error (a summary line when
                             that is not a terminal); FILE appears only when complete and the answer is 2xx
          -c, --continue     resume a broken-off -o download from FILE.part
          -S, --stream       print the body as it arrives: line by line, or event by event (text/event-stream)
          -L, --follow       follow redirects (not followed by default: the 3xx is the answer)
              --max-redirects N   follow at most N redirects (implies --follow; 30 by default)
              --timeout SECONDS   give up when nothing moves for this long (60 by default)
              --max-time SECONDS  give up when the whole exchange takes longer
              --check-status      exit 13, 14 or 15 for a 3xx, 4xx or 5xx answer
              --cache DIR         keep an HTTP cache (RFC 9111) in DIR between runs: a fresh stored answer is
                                  printed (or saved with -o) without asking the server, a stale one is
                                  revalidated; the summary says which (not for --stream or a resumed -c)

          -h, --help         this text;  --version  Ferry's version

        Exit status:
          0   the exchange completed (whatever the status, without --check-status)
          1   another failure (a local file could not be written, a body too large, ...)
          2   usage: bad option, item, URL or file
          3   network: no connection, connection lost or refused, malformed response
          4   timeout (--timeout or --max-time)
          5   too many redirects
          13, 14, 15   a 3xx, 4xx or 5xx answer, with --check-status (always with -o)

        Examples:
          ferry :8080/get a==1
          ferry PUT example.com/users/1 name=Ada admin:=true X-Trace:42
          ferry -f POST localhost:8080/login user=ada password=secret
          ferry -o big.iso https://example.com/big.iso
          ferry --stream POST :8080/chat prompt=hello Accept:text/event-stream
          ferry demo
        """
}
