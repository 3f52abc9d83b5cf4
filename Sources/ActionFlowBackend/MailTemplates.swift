import ActionFlowModel
import Foundation

/// The project's email templates, in the languages the `X-Firebase-Locale` header can pick.
/// Placeholders as in the console's templates: `%APP_NAME%`, `%EMAIL%`, `%NEW_EMAIL%`, `%LINK%`,
/// and `%TIME%`, the request time the email-link sign-in email names (`requestTime(_:)`).
public enum MailTemplates {
    public struct Template: Sendable, Hashable {
        public var subject: String
        public var body: String
        public init(subject: String, body: String) {
            self.subject = subject
            self.body = body
        }
    }

    public static var languages: Set<String> { Set(table.keys) }

    /// The template language for a locale such as `fr`, `fr-FR`, `de_DE`, `JA` or `iw`; nil when none fits.
    public static func language(for locale: String) -> String? {
        let primary = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        let code = retiredCodes[primary] ?? primary
        return table[code] == nil ? nil : code
    }

    /// The English name of a template language, for narration (`fr` is French).
    public static func name(of language: String) -> String {
        names[language] ?? language
    }

    /// ISO 639 codes that were renamed and that older Java and Android locales still send.
    private static let retiredCodes = ["iw": "he"]

    private static let names = [
        "en": "English", "fr": "French", "de": "German", "es": "Spanish", "ja": "Japanese", "he": "Hebrew", "vi": "Vietnamese",
    ]

    public static func template(_ type: OobRequestType, language: String) -> Template? {
        table[language]?[type]
    }

    /// The subject and body of a `type` email in `language`, else in English; the request type
    /// and the bare link for a type without templates. Every sender of the simulated emails uses it.
    public static func compose(_ type: OobRequestType, language: String, appName: String, email: String, newEmail: String?, link: String, requestedAt: Date) -> (subject: String, body: String) {
        guard let template = template(type, language: language) ?? template(type, language: "en") else { return (type.rawValue, link) }
        return render(template, appName: appName, email: email, newEmail: newEmail, link: link, requestedAt: requestedAt)
    }

    /// Fills a template's placeholders.
    public static func render(_ template: Template, appName: String, email: String, newEmail: String?, link: String, requestedAt: Date) -> (subject: String, body: String) {
        let values = ["APP_NAME": appName, "EMAIL": email, "NEW_EMAIL": newEmail ?? email, "LINK": link, "TIME": requestTime(requestedAt)]
        return (fill(template.subject, values), fill(template.body, values))
    }

    /// The request time as the email-link sign-in email writes it: in English and UTC whatever
    /// the template's language, so that repeated sign-in emails do not fold into one mail
    /// thread with the newest link hidden in quoted text (firebase-js-sdk#2574 and #7949,
    /// flutterfire#16073 show it). Assumed: the exact format (`2024 January 11 16:50 UTC`) is
    /// read off users' reports, not Firebase's source, and is written here only.
    public static func requestTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let month = monthNames[max(0, min(11, (parts.month ?? 1) - 1))]
        func twoDigits(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        return "\(parts.year ?? 1970) \(month) \(parts.day ?? 1) \(twoDigits(parts.hour)):\(twoDigits(parts.minute)) UTC"
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// One pass over the text: `%NAME%` with a known name becomes its value, anything else stays.
    /// (Much cheaper than one `replacingOccurrences` per placeholder; mails are sent in hot loops.)
    static func fill(_ text: String, _ values: [String: String]) -> String {
        // On UTF-8 code units (`%` is one byte): a scan by characters cost `serve` a twentieth
        // of a send. Unlike that scan, it also finds a `%` that a combining mark follows.
        var text = text
        let percent = UInt8(ascii: "%")
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 128)
            var rest = bytes[...]
            while let open = rest.firstIndex(of: percent) {
                output.append(contentsOf: rest[..<open])
                let afterOpen = open + 1
                if let close = rest[afterOpen...].firstIndex(of: percent),
                   let value = values[String(decoding: UnsafeBufferPointer(rebasing: rest[afterOpen..<close]), as: UTF8.self)] {
                    output.append(contentsOf: value.utf8)
                    rest = rest[(close + 1)...]
                } else {
                    output.append(percent)
                    rest = rest[afterOpen...]
                }
            }
            output.append(contentsOf: rest)
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static let table: [String: [OobRequestType: Template]] = [
        "en": [
            .passwordReset: Template(
                subject: "Reset your password for %APP_NAME%",
                body: "Hello,\n\nFollow this link to reset your %APP_NAME% password for your %EMAIL% account.\n\n%LINK%\n\nIf you didn't ask to reset your password, you can ignore this email.\n\nThanks,\n\nYour %APP_NAME% team"),
            .verifyEmail: Template(
                subject: "Verify your email for %APP_NAME%",
                body: "Hello,\n\nFollow this link to verify your email address.\n\n%LINK%\n\nIf you didn't ask to verify this address, you can ignore this email.\n\nThanks,\n\nYour %APP_NAME% team"),
            .emailSignIn: Template(
                subject: "Sign in to %APP_NAME% requested at %TIME%",
                body: "Hello,\n\nWe received a request to sign in to %APP_NAME% using this email address, at %TIME%. If you want to sign in with your %EMAIL% account, click this link:\n\n%LINK%\n\nIf you did not request this link, you can safely ignore this email.\n\nThanks,\n\nYour %APP_NAME% team"),
            .verifyAndChangeEmail: Template(
                subject: "Verify your new email for %APP_NAME%",
                body: "Hello,\n\nFollow this link to change the sign-in email of your %APP_NAME% account from %EMAIL% to %NEW_EMAIL%.\n\n%LINK%\n\nIf you didn't ask to change your email, you can ignore this email.\n\nThanks,\n\nYour %APP_NAME% team"),
            .recoverEmail: Template(
                subject: "Your sign-in email was changed for %APP_NAME%",
                body: "Hello,\n\nYour sign-in email for %APP_NAME% was changed to %NEW_EMAIL%.\n\nIf you didn't ask to change your email, follow this link to reset your sign-in email.\n\n%LINK%\n\nThanks,\n\nYour %APP_NAME% team"),
            .revertSecondFactorAddition: Template(
                subject: "A second sign-in step was added to your %APP_NAME% account",
                body: "Hello,\n\nA phone number now confirms each sign-in to %APP_NAME% as %EMAIL%.\n\nIf you didn't add it, follow this link to remove it, then change your password.\n\n%LINK%\n\nThanks,\n\nYour %APP_NAME% team"),
        ],
        "fr": [
            .passwordReset: Template(
                subject: "Réinitialisez votre mot de passe pour %APP_NAME%",
                body: "Bonjour,\n\nCliquez sur ce lien pour réinitialiser le mot de passe %APP_NAME% de votre compte %EMAIL%.\n\n%LINK%\n\nSi vous n'avez pas demandé à réinitialiser votre mot de passe, vous pouvez ignorer cet e-mail.\n\nMerci,\n\nL'équipe %APP_NAME%"),
            .verifyEmail: Template(
                subject: "Validez votre adresse e-mail pour %APP_NAME%",
                body: "Bonjour,\n\nCliquez sur ce lien pour valider votre adresse e-mail.\n\n%LINK%\n\nSi vous n'avez pas demandé à valider cette adresse, vous pouvez ignorer cet e-mail.\n\nMerci,\n\nL'équipe %APP_NAME%"),
            .emailSignIn: Template(
                subject: "Connexion à %APP_NAME% demandée à %TIME%",
                body: "Bonjour,\n\nNous avons reçu une demande de connexion à %APP_NAME% avec cette adresse e-mail, à %TIME%. Pour vous connecter avec le compte %EMAIL%, cliquez sur ce lien :\n\n%LINK%\n\nSi vous n'avez pas demandé ce lien, vous pouvez ignorer cet e-mail.\n\nMerci,\n\nL'équipe %APP_NAME%"),
            .verifyAndChangeEmail: Template(
                subject: "Validez votre nouvelle adresse e-mail pour %APP_NAME%",
                body: "Bonjour,\n\nCliquez sur ce lien pour remplacer l'adresse de connexion de votre compte %APP_NAME%, %EMAIL%, par %NEW_EMAIL%.\n\n%LINK%\n\nSi vous n'avez pas demandé ce changement, vous pouvez ignorer cet e-mail.\n\nMerci,\n\nL'équipe %APP_NAME%"),
            .recoverEmail: Template(
                subject: "Votre adresse de connexion à %APP_NAME% a été modifiée",
                body: "Bonjour,\n\nVotre adresse de connexion à %APP_NAME% a été remplacée par %NEW_EMAIL%.\n\nSi vous n'avez pas demandé ce changement, cliquez sur ce lien pour rétablir votre adresse.\n\n%LINK%\n\nMerci,\n\nL'équipe %APP_NAME%"),
        ],
        "de": [
            .passwordReset: Template(
                subject: "Passwort für %APP_NAME% zurücksetzen",
                body: "Hallo,\n\nüber diesen Link können Sie Ihr %APP_NAME%-Passwort für das Konto %EMAIL% zurücksetzen.\n\n%LINK%\n\nWenn Sie kein neues Passwort angefordert haben, können Sie diese E-Mail ignorieren.\n\nVielen Dank\n\nIhr %APP_NAME%-Team"),
            .verifyEmail: Template(
                subject: "E-Mail-Adresse für %APP_NAME% bestätigen",
                body: "Hallo,\n\nbestätigen Sie Ihre E-Mail-Adresse über diesen Link.\n\n%LINK%\n\nWenn Sie diese Bestätigung nicht angefordert haben, können Sie diese E-Mail ignorieren.\n\nVielen Dank\n\nIhr %APP_NAME%-Team"),
            .emailSignIn: Template(
                subject: "Anmeldung bei %APP_NAME% angefordert um %TIME%",
                body: "Hallo,\n\nwir haben eine Anfrage erhalten, sich mit dieser E-Mail-Adresse bei %APP_NAME% anzumelden, um %TIME%. Um sich mit dem Konto %EMAIL% anzumelden, klicken Sie auf diesen Link:\n\n%LINK%\n\nWenn Sie diesen Link nicht angefordert haben, können Sie diese E-Mail ignorieren.\n\nVielen Dank\n\nIhr %APP_NAME%-Team"),
            .verifyAndChangeEmail: Template(
                subject: "Neue E-Mail-Adresse für %APP_NAME% bestätigen",
                body: "Hallo,\n\nüber diesen Link ändern Sie die Anmelde-E-Mail Ihres %APP_NAME%-Kontos von %EMAIL% zu %NEW_EMAIL%.\n\n%LINK%\n\nWenn Sie diese Änderung nicht angefordert haben, können Sie diese E-Mail ignorieren.\n\nVielen Dank\n\nIhr %APP_NAME%-Team"),
            .recoverEmail: Template(
                subject: "Ihre Anmelde-E-Mail für %APP_NAME% wurde geändert",
                body: "Hallo,\n\nIhre Anmelde-E-Mail für %APP_NAME% wurde zu %NEW_EMAIL% geändert.\n\nWenn Sie das nicht waren, setzen Sie Ihre Anmelde-E-Mail über diesen Link zurück.\n\n%LINK%\n\nVielen Dank\n\nIhr %APP_NAME%-Team"),
        ],
        "es": [
            .passwordReset: Template(
                subject: "Restablece tu contraseña de %APP_NAME%",
                body: "Hola:\n\nHaz clic en este enlace para restablecer la contraseña de %APP_NAME% de tu cuenta %EMAIL%.\n\n%LINK%\n\nSi no has solicitado restablecer la contraseña, puedes ignorar este correo.\n\nGracias,\n\nEl equipo de %APP_NAME%"),
            .verifyEmail: Template(
                subject: "Verifica tu correo electrónico de %APP_NAME%",
                body: "Hola:\n\nHaz clic en este enlace para verificar tu dirección de correo electrónico.\n\n%LINK%\n\nSi no has solicitado verificar esta dirección, puedes ignorar este correo.\n\nGracias,\n\nEl equipo de %APP_NAME%"),
            .emailSignIn: Template(
                subject: "Inicio de sesión en %APP_NAME% solicitado a las %TIME%",
                body: "Hola:\n\nHemos recibido una solicitud para iniciar sesión en %APP_NAME% con esta dirección de correo, a las %TIME%. Para iniciar sesión con la cuenta %EMAIL%, haz clic en este enlace:\n\n%LINK%\n\nSi no has solicitado este enlace, puedes ignorar este correo.\n\nGracias,\n\nEl equipo de %APP_NAME%"),
            .verifyAndChangeEmail: Template(
                subject: "Verifica tu nuevo correo electrónico de %APP_NAME%",
                body: "Hola:\n\nHaz clic en este enlace para cambiar el correo de inicio de sesión de tu cuenta de %APP_NAME% de %EMAIL% a %NEW_EMAIL%.\n\n%LINK%\n\nSi no has solicitado este cambio, puedes ignorar este correo.\n\nGracias,\n\nEl equipo de %APP_NAME%"),
            .recoverEmail: Template(
                subject: "Se ha cambiado tu correo de inicio de sesión de %APP_NAME%",
                body: "Hola:\n\nTu correo de inicio de sesión de %APP_NAME% se ha cambiado a %NEW_EMAIL%.\n\nSi no has solicitado este cambio, haz clic en este enlace para restablecer tu correo.\n\n%LINK%\n\nGracias,\n\nEl equipo de %APP_NAME%"),
        ],
        "ja": [
            .passwordReset: Template(
                subject: "%APP_NAME% のパスワードを再設定してください",
                body: "%EMAIL% 様\n\n%APP_NAME% のパスワードを再設定するには、次のリンクをクリックしてください。\n\n%LINK%\n\nパスワードの再設定を依頼していない場合は、このメールを無視してください。\n\n%APP_NAME% チーム"),
            .verifyEmail: Template(
                subject: "%APP_NAME% のメールアドレスを確認してください",
                body: "%EMAIL% 様\n\nメールアドレスを確認するには、次のリンクをクリックしてください。\n\n%LINK%\n\nこの確認を依頼していない場合は、このメールを無視してください。\n\n%APP_NAME% チーム"),
            .emailSignIn: Template(
                subject: "%APP_NAME% へのログインが %TIME% にリクエストされました",
                body: "%EMAIL% 様\n\nこのメールアドレスで %APP_NAME% にログインするリクエストを %TIME% に受け付けました。ログインするには、次のリンクをクリックしてください。\n\n%LINK%\n\nこのリンクをリクエストしていない場合は、このメールを無視してください。\n\n%APP_NAME% チーム"),
            .verifyAndChangeEmail: Template(
                subject: "%APP_NAME% の新しいメールアドレスを確認してください",
                body: "%EMAIL% 様\n\n%APP_NAME% アカウントのログイン用メールアドレスを %NEW_EMAIL% に変更するには、次のリンクをクリックしてください。\n\n%LINK%\n\nこの変更を依頼していない場合は、このメールを無視してください。\n\n%APP_NAME% チーム"),
            .recoverEmail: Template(
                subject: "%APP_NAME% のログイン用メールアドレスが変更されました",
                body: "%EMAIL% 様\n\n%APP_NAME% のログイン用メールアドレスが %NEW_EMAIL% に変更されました。\n\nこの変更に心当たりがない場合は、次のリンクからメールアドレスを元に戻してください。\n\n%LINK%\n\n%APP_NAME% チーム"),
        ],
        "he": [
            .passwordReset: Template(
                subject: "איפוס הסיסמה שלך ל-%APP_NAME%",
                body: "שלום,\n\nיש ללחוץ על הקישור הזה כדי לאפס את הסיסמה שלך ל-%APP_NAME% עבור החשבון %EMAIL%.\n\n%LINK%\n\nאם לא ביקשת לאפס את הסיסמה, אפשר להתעלם מהאימייל הזה.\n\nתודה,\n\nצוות %APP_NAME%"),
            .verifyEmail: Template(
                subject: "אימות כתובת האימייל שלך ב-%APP_NAME%",
                body: "שלום,\n\nיש ללחוץ על הקישור הזה כדי לאמת את כתובת האימייל שלך.\n\n%LINK%\n\nאם לא ביקשת לאמת את הכתובת הזו, אפשר להתעלם מהאימייל הזה.\n\nתודה,\n\nצוות %APP_NAME%"),
            .emailSignIn: Template(
                subject: "בקשה להתחבר ל-%APP_NAME% ב-%TIME%",
                body: "שלום,\n\nקיבלנו בקשה להתחבר ל-%APP_NAME% באמצעות כתובת האימייל הזו, ב-%TIME%. כדי להתחבר עם החשבון %EMAIL%, יש ללחוץ על הקישור הזה:\n\n%LINK%\n\nאם לא ביקשת את הקישור הזה, אפשר פשוט להתעלם מהאימייל הזה.\n\nתודה,\n\nצוות %APP_NAME%"),
            .verifyAndChangeEmail: Template(
                subject: "אימות כתובת האימייל החדשה שלך ב-%APP_NAME%",
                body: "שלום,\n\nיש ללחוץ על הקישור הזה כדי לשנות את כתובת האימייל להתחברות לחשבון שלך ב-%APP_NAME% מ-%EMAIL% ל-%NEW_EMAIL%.\n\n%LINK%\n\nאם לא ביקשת לשנות את כתובת האימייל, אפשר להתעלם מהאימייל הזה.\n\nתודה,\n\nצוות %APP_NAME%"),
            .recoverEmail: Template(
                subject: "כתובת האימייל להתחברות ל-%APP_NAME% שונתה",
                body: "שלום,\n\nכתובת האימייל שלך להתחברות ל-%APP_NAME% שונתה ל-%NEW_EMAIL%.\n\nאם לא ביקשת לשנות את כתובת האימייל, יש ללחוץ על הקישור הזה כדי לשחזר את כתובת האימייל להתחברות.\n\n%LINK%\n\nתודה,\n\nצוות %APP_NAME%"),
        ],
        "vi": [
            .passwordReset: Template(
                subject: "Đặt lại mật khẩu của bạn cho %APP_NAME%",
                body: "Xin chào,\n\nHãy nhấp vào đường liên kết này để đặt lại mật khẩu %APP_NAME% cho tài khoản %EMAIL% của bạn.\n\n%LINK%\n\nNếu bạn không yêu cầu đặt lại mật khẩu, bạn có thể bỏ qua email này.\n\nCảm ơn bạn,\n\nNhóm %APP_NAME%"),
            .verifyEmail: Template(
                subject: "Xác minh email của bạn cho %APP_NAME%",
                body: "Xin chào,\n\nHãy nhấp vào đường liên kết này để xác minh địa chỉ email của bạn.\n\n%LINK%\n\nNếu bạn không yêu cầu xác minh địa chỉ này, bạn có thể bỏ qua email này.\n\nCảm ơn bạn,\n\nNhóm %APP_NAME%"),
            .emailSignIn: Template(
                subject: "Yêu cầu đăng nhập vào %APP_NAME% lúc %TIME%",
                body: "Xin chào,\n\nChúng tôi đã nhận được yêu cầu đăng nhập vào %APP_NAME% bằng địa chỉ email này, lúc %TIME%. Nếu bạn muốn đăng nhập bằng tài khoản %EMAIL%, hãy nhấp vào đường liên kết này:\n\n%LINK%\n\nNếu bạn không yêu cầu đường liên kết này, bạn có thể yên tâm bỏ qua email này.\n\nCảm ơn bạn,\n\nNhóm %APP_NAME%"),
            .verifyAndChangeEmail: Template(
                subject: "Xác minh email mới của bạn cho %APP_NAME%",
                body: "Xin chào,\n\nHãy nhấp vào đường liên kết này để đổi email đăng nhập của tài khoản %APP_NAME% từ %EMAIL% thành %NEW_EMAIL%.\n\n%LINK%\n\nNếu bạn không yêu cầu đổi email, bạn có thể bỏ qua email này.\n\nCảm ơn bạn,\n\nNhóm %APP_NAME%"),
            .recoverEmail: Template(
                subject: "Email đăng nhập %APP_NAME% của bạn đã được thay đổi",
                body: "Xin chào,\n\nEmail đăng nhập %APP_NAME% của bạn đã được đổi thành %NEW_EMAIL%.\n\nNếu bạn không yêu cầu đổi email, hãy nhấp vào đường liên kết này để khôi phục email đăng nhập.\n\n%LINK%\n\nCảm ơn bạn,\n\nNhóm %APP_NAME%"),
        ],
    ]
}
