#pragma once

#include <QString>
#include <QStringList>

class QObject;
class QSettings;

/// The languages the terminal's screens are shown in (issue 6, item 7): English, as written in
/// the code, and Hindi from the Qt Linguist file resources/translations/rechargedesk_hi.ts, built
/// into :/i18n/rechargedesk_hi.qm. The choice is terminal-local (terminal.ini, key
/// terminal/language) and read once at start, before the first widget is made.
namespace UiLanguage {

/// The terminal.ini key that holds the language code ("en" or "hi").
QString settingKey();
/// The code of the language the program is written in: "en".
QString english();
/// The language codes offered in Settings, English first.
QStringList codes();
/// The language's name as its speakers write it ("English", "हिन्दी"); empty for an unknown code.
QString nativeName(const QString &code);
/// `value` if it is one of codes() (case and surrounding spaces ignored), else "en".
QString normalized(const QString &value);
/// The language to start in: $RECHARGEDESK_LANG when set (for screenshots and tests), else
/// terminal/language of `terminalIni`, else English. Unknown codes fall back to English.
QString chosen(const QSettings &terminalIni);
/// Installs the translator of `code` into the running application, owned by `owner` (deleting
/// the owner removes it again). English needs none. Returns false, with nothing installed, when
/// the language is unknown or its .qm is missing from the resources.
bool install(const QString &code, QObject *owner);

/// One string that Qt's own widgets show (context and source as Qt passes them to tr()).
struct QtString
{
    const char *context;
    struct
    {
        const char *source;
        const char *disambiguation;
    } text;
};
/// The strings of Qt's own dialogs and menus the terminal shows (OK/Cancel, text edit menus, the
/// file dialog). Qt ships no Hindi for them, so rechargedesk_hi.ts carries these too.
QList<QtString> qtStrings();

} // namespace UiLanguage
