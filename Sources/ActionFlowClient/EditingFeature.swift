import ActionFlowBackend
import ActionFlowModel
import Foundation

// Edits of settings, device and project, the clock, resetting the world, retry and dismiss.
extension Session {
    mutating func reduceEditing(_ event: AppEvent) -> [Effect] {
        switch event {
        case .settingsEdited(let settings):
            log(.settingsEdited(from: app.settings, to: settings))
            app.settings = settings
            return []

        case .deviceEdited(let device):
            app.device = device
            log(.deviceEdited(device))
            return []

        case .projectEdited(let project):
            // The app's project changes when the world has restarted with it, not before.
            log(.projectEdited(project))
            return start(.applyProject(project))

        case .continueURLBaseEdited(let base):
            app.continueURLBase = base
            log(.continueURLBaseEdited(base))
            return []

        case .localeEdited(let locale):
            app.locale = locale
            log(.localeEdited(locale))
            return []

        case .clockAdvanceRequested(let seconds):
            log(.clockAdvanceRequested(seconds: seconds))
            return start(.advanceClock(seconds: seconds))

        case .worldResetRequested:
            log(.worldResetRequested)
            return start(.resetWorld)

        case .retryTapped:
            guard let retry = app.banner?.retry else {
                log(.refused(.nothingToRetry))
                return []
            }
            app.banner = nil
            log(.retryRequested)
            if case .call(.sendOobCode(let request, _), .app) = retry {
                app.flow = FlowProgress(kind: FlowKind(request.requestType), step: .requesting, email: request.email ?? app.session?.email, continueURL: request.continueUrl)
            }
            return start(retry)

        case .errorDismissed:
            guard app.banner != nil else { return [] }
            app.banner = nil
            log(.errorDismissed)
            return []

        case .clockAdvanced(let now):
            app.busy.remove(.clock)
            world.now = now
            log(.clockAdvanced(now))
            return []

        case .worldReset(let now):
            restartApp(now: now)
            log(.worldReset(now: now))
            return []

        case .projectApplied(let project, let now):
            world.project = project
            // A new world: its exchanges are numbered from 1 again.
            exchanges = []
            exchangeCount = 0
            restartApp(now: now)
            log(.worldReset(now: now))
            return []

        case .serviceFailed(let effect, let failure):
            app.busy.remove(effect.busyTask)
            log(.serviceFailed(effect, failure))
            app.banner = ErrorBanner(message: "\(effect.summary) failed: \(Narration.describe(failure))", code: failure.serverCode, retry: effect)
            return []

        default:
            return []
        }
    }

    /// The app on every device as a fresh install on the same device with the same settings; a
    /// world's mailbox is empty again and its clock as given.
    private mutating func restartApp(now: Date?) {
        for index in devices.indices {
            let app = devices[index].app
            devices[index].app = AppState(device: app.device, settings: app.settings, continueURLBase: app.continueURLBase, locale: app.locale)
            devices[index].drafts = [:]
        }
        if !world.inbox.isEmpty {
            world.earlierInboxes = (world.earlierInboxes ?? []) + [World.EarlierInbox(messages: world.inbox, untilJournalEntry: journal.count)]
        }
        world.inbox = []
        world.now = now
    }
}
