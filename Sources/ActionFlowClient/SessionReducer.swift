import ActionFlowBackend
import ActionFlowModel
import ActionFlowTransport
import Foundation

extension Session {
    /// The one reducer: applies `event` and returns the effects a runner is to run
    /// (`EffectRunner`), whose replies come back as events, in both worlds.
    ///
    /// Synchronous, no I/O, no wall clock. An event is reduced on the device it is for: the one
    /// it names (`onDevice`), else the one in focus. With several devices each effect names the
    /// device it came from, so that its replies return there even when the focus has moved meanwhile.
    public mutating func reduce(_ event: AppEvent) -> [Effect] {
        switch event {
        case .onDevice(let index, let inner):
            guard devices.indices.contains(index) else { return [] }
            let focused = focus
            focus = index
            defer { focus = focused }
            return reduce(inner)
        case .deviceFocused(let index):
            if devices.indices.contains(index) { focus = index }
            return []
        default:
            let effects = reduceApp(event)
            guard hasSeveralDevices else { return effects }
            let index = focus
            return effects.map { $0.isOnDevice ? $0 : .onDevice(index, $0) }
        }
    }

    /// Composes the features: each event goes to the one that owns it.
    mutating func reduceApp(_ event: AppEvent) -> [Effect] {
        switch event {
        case .openRoute, .forgotPasswordTapped, .appOpened, .subscribeTapped, .signOutTapped, .signInSubmitted:
            return reduceNavigation(event)
        case .passwordResetRequested, .newPasswordSubmitted:
            return reducePasswordReset(event)
        case .verificationRequested, .reloadUserTapped:
            return reduceVerification(event)
        case .secondFactorRequested, .textMessagesRead:
            return reduceSecondFactor(event)
        case .signInLinkRequested, .signInEmailConfirmed:
            return reduceEmailLinkSignIn(event)
        case .continueTapped:
            return reduceWebWidget(event)
        case .mailboxOpened, .messageOpened, .linkTapped, .linkPasted, .linkOpened, .storeActionTapped, .mailboxRefreshed:
            return reduceMail(event)
        case .settingsEdited, .deviceEdited, .projectEdited, .continueURLBaseEdited, .localeEdited,
             .clockAdvanceRequested, .worldResetRequested, .retryTapped, .errorDismissed,
             .clockAdvanced, .worldReset, .projectApplied, .serviceFailed:
            return reduceEditing(event)
        case .deviceFocused, .onDevice:
            return reduce(event)
        case .draftEdited(let field, let text):
            drafts[field] = text
            return []
        case .presenterStarted(let title, let steps):
            presenter = PresenterProgress(title: title, steps: steps)
            return []
        case .presenterStepPlayed(let passed, let summary, let checked):
            presenter?.played += 1
            presenter?.lastResult = summary
            if !passed { presenter?.failed = true }
            if checked { presenter?.journalMark = journal.count }
            return []
        case .exchangeRecorded(let record, let operation, let caller):
            appendExchange(record, operation, by: caller)
            return []
        case .captured(let step):
            reduceCaptured(step)
            return []
        case .mailSent(let messages):
            world.inbox += messages
            for message in messages { log(.mailSent(id: message.id, to: message.to, message.requestType)) }
            return []
        case .callSucceeded(let call, let caller, let reply):
            app.busy.remove(caller == .mailScanner ? .scanner : call.busyTask)
            // From here on each reply is typed by its call: a handler that forgets one does not compile.
            guard let answered = CallReply(call, reply) else {
                log(.reply(.unexpected(call.operation)))
                return []
            }
            switch caller {
            case .mailScanner:
                log(.scanner(removesSecondFactor(call) ? .removedSecondFactor : .result(call)))
                return []
            case .webWidget:
                return webWidgetSucceeded(answered)
            case .app:
                return appSucceeded(answered)
            }
        case .callFailed(let call, let caller, let failure):
            app.busy.remove(caller == .mailScanner ? .scanner : call.busyTask)
            switch caller {
            case .mailScanner:
                log(.scanner(.failed(call.operation, failure)))
                return []
            case .webWidget:
                return webWidgetFailed(call, failure)
            case .app:
                return appFailed(call, failure)
            }
        }
    }

    /// Appends a fact at the project's current time, naming the device in focus when there are several.
    mutating func log(_ fact: JournalFact) {
        let device = hasSeveralDevices && !fact.isAboutTheWorld ? devices[focus].name : nil
        journal.append(JournalEntry(at: now, fact, device: device))
    }

    /// Journals a call with why it is made, then starts it.
    mutating func send(_ call: AuthCall, by caller: Caller = .app, for purpose: CallPurpose) -> [Effect] {
        log(.request(call, by: caller, purpose: purpose))
        return start(.call(call, by: caller))
    }

    /// Marks the effect's work as busy and returns it.
    mutating func start(_ effect: Effect) -> [Effect] {
        app.busy.insert(effect.busyTask)
        return [effect]
    }

    /// Numbers the exchange (from 1 in each world), keeps it in the window and journals it.
    private mutating func appendExchange(_ unnumbered: ExchangeRecord, _ operation: IdentityToolkitOperation, by caller: Caller) {
        let record = keepExchange(unnumbered)
        let error: String? = switch record.failure {
        case .server(let code, _): code.rawValue
        case .network(let network): Narration.describe(network)
        case nil: nil
        }
        log(.exchange(id: record.id, operation, by: caller, status: record.status, error: error))
    }

    /// Numbers the exchange (from 1 in each world) and keeps it in the window.
    private mutating func keepExchange(_ unnumbered: ExchangeRecord) -> ExchangeRecord {
        exchangeCount += 1
        var record = unnumbered
        record.id = exchangeCount
        exchanges.append(record)
        if exchanges.count > Self.exchangeWindow { exchanges.removeFirst(exchanges.count - Self.exchangeWindow) }
        return record
    }

    /// A capture's step: the world's clock moves to when it happened, the fact is journaled, its
    /// exchange kept for the Network pane, its email put in the mailbox, its link in the Link pane.
    private mutating func reduceCaptured(_ step: CaptureStep) {
        if let at = step.at { world.now = at }
        if let mail = step.mail {
            world.inbox.append(mail)
            // The capture's mail is in the Mail pane as soon as it is seen: no app lists it.
            app.listedMessages = world.inbox.count
        }
        log(.captured(step.fact))
        if let exchange = step.exchange { _ = keepExchange(exchange) }
        if case .actionLink(let link) = step.fact {
            app.lastLink = LinkVisit(link: link.link, outcome: link.source.narration,
                                     anatomy: try? LinkInspector.inspect(link.link, authorizedDomains: project.authorizedDomains))
        }
    }
}

extension Effect {
    var isOnDevice: Bool {
        if case .onDevice = self { true } else { false }
    }
}

extension AuthCall {
    /// The Network pane's record of this call and its outcome.
    func exchangeRecord(id: Int, apiKey: String?, result: Result<AuthReply, AuthFailure>, startedAt: Date, duration: TimeInterval) -> ExchangeRecord {
        ExchangeRecord(id: id, operation, request: WireBody(request), locale: locale, apiKey: apiKey, result: result.map { WireBody($0.response) }, startedAt: startedAt, duration: duration)
    }
}

