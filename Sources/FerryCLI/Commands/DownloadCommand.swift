import Ferry
import Foundation

/// `ferry -d URL` and `ferry -o FILE URL`: the body to a file, with a progress bar; `--continue` resumes a
/// broken-off `-o` download.
///
/// The file appears only when the download is complete and the answer was 2xx. With `-o` an existing file is
/// replaced; with `-d` alone the file is named by the server or the URL (``DownloadName``) and never replaces one.
/// A download that breaks off keeps its bytes in `FILE.part` when the server named the version (see
/// ``PartialDownload``).
struct DownloadCommand {
    let invocation: Invocation

    func run() async -> ExitCode {
        await invocation.withRequest { request, session in await run(request, on: session) }
    }

    private func run(_ request: Request, on session: Session) async -> ExitCode {
        let layout = invocation.layout
        let named = invocation.options.output == nil
        let destination =
            named
            ? URL(fileURLWithPath: ".ferry-download-\(UUID().uuidString)")
            : URL(fileURLWithPath: invocation.options.output ?? "")
        var path = destination.relativePath
        let partial = PartialDownload(destination: destination)
        // A non-2xx answer is an error here: its body is not the file asked for.
        let options = DownloadOptions(replacesExistingFile: true)
        var task: DownloadTask
        if invocation.options.continues, let resume = partial.resumeData(for: request) {
            layout.note("resuming \(path) after \(Units.bytes(resume.byteCount))")
            task = session.download(resuming: resume, to: destination, options: options)
        } else {
            if invocation.options.continues { layout.note("nothing to resume in \(partial.partFile.path); from start") }
            task = session.download(request, to: destination, options: options)
        }
        task = task.validate(using: .successfulStatus)
        let started = ContinuousClock.now
        var display = ProgressDisplay(stream: layout.noteStream)
        async let finished = task.response
        for await progress in task.downloadProgress { display.update(progress) }
        let response = await finished
        display.finish()
        // The head is known only once the file is placed: shown after the bar, when asked for.
        if let head = response.response, invocation.options.isVerbose || invocation.options.print != nil {
            layout.printResponseHead(head)
        }
        layout.printTimeline(response.timeline, metrics: response.metrics)
        layout.printMetadata(response.timeline)
        guard var file = response.fileURL, response.error == nil else {
            return failed(response, partial: named ? nil : partial)
        }
        partial.clean()
        if named, let head = response.response {
            do {
                file = try DownloadName.place(file, for: head, in: URL(fileURLWithPath: "."))
                path = file.lastPathComponent
            } catch {
                invocation.layout.printError("-d: the file could not be named: \(error.localizedDescription)")
                return .failure
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? nil
        layout.note(
            ProgressBar.summary(bytes: size ?? 0, file: path, elapsed: started.duration(to: .now))
                + Invocation.cacheNote(response.metrics.cacheStatus))
        return .success
    }

    /// Fails the run; the partial file is kept for `--continue` after `-o FILE`, and discarded after `-d` alone
    /// (`partial` is `nil`), whose name `--continue` could not find again.
    private func failed(_ response: DownloadResponse, partial: PartialDownload?) -> ExitCode {
        guard let error = response.error else { return .failure }
        let status = invocation.fail(error)
        guard let partial else {
            response.resumeData?.discard()
            return status
        }
        if let resume = response.resumeData {
            do {
                let kept = try partial.keep(resume)
                invocation.layout.note(
                    "kept \(Units.bytes(kept)) in \(partial.partFile.path); run again with --continue to resume")
            } catch {
                resume.discard()
            }
        }
        return status
    }
}
