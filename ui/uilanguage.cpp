#include "uilanguage.h"

#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QTranslator>

namespace {

const QString kHindi = QStringLiteral("hi");

/// Qt's own strings, marked for lupdate so rechargedesk_hi.ts translates them (the Qt contexts
/// below are looked up by the same QTranslator as the terminal's own).
constexpr UiLanguage::QtString kQtStrings[] = {
    {"QPlatformTheme", QT_TRANSLATE_NOOP3("QPlatformTheme", "OK", "")},
    {"QPlatformTheme", QT_TRANSLATE_NOOP3("QPlatformTheme", "Cancel", "")},
    {"QPlatformTheme", QT_TRANSLATE_NOOP3("QPlatformTheme", "Save", "")},
    {"QPlatformTheme", QT_TRANSLATE_NOOP3("QPlatformTheme", "Open", "")},
    {"QLineEdit", QT_TRANSLATE_NOOP3("QLineEdit", "&Undo", "")},
    {"QLineEdit", QT_TRANSLATE_NOOP3("QLineEdit", "&Redo", "")},
    {"QLineEdit", QT_TRANSLATE_NOOP3("QLineEdit", "Cu&t", "")},
    {"QLineEdit", QT_TRANSLATE_NOOP3("QLineEdit", "&Copy", "")},
    {"QLineEdit", QT_TRANSLATE_NOOP3("QLineEdit", "&Paste", "")},
    {"QLineEdit", QT_TRANSLATE_NOOP3("QLineEdit", "Delete", "")},
    {"QLineEdit", QT_TRANSLATE_NOOP3("QLineEdit", "Select All", "")},
    {"QWidgetTextControl", QT_TRANSLATE_NOOP3("QWidgetTextControl", "&Undo", "")},
    {"QWidgetTextControl", QT_TRANSLATE_NOOP3("QWidgetTextControl", "&Redo", "")},
    {"QWidgetTextControl", QT_TRANSLATE_NOOP3("QWidgetTextControl", "Cu&t", "")},
    {"QWidgetTextControl", QT_TRANSLATE_NOOP3("QWidgetTextControl", "&Copy", "")},
    {"QWidgetTextControl", QT_TRANSLATE_NOOP3("QWidgetTextControl", "&Paste", "")},
    {"QWidgetTextControl", QT_TRANSLATE_NOOP3("QWidgetTextControl", "Delete", "")},
    {"QWidgetTextControl", QT_TRANSLATE_NOOP3("QWidgetTextControl", "Select All", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Look in:", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "File &name:", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Files of type:", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "&Save", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "&Open", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "All Files (*)", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Back", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Forward", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Parent Directory", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Create New Folder", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "List View", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Detail View", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "&New Folder", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "&Rename", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "&Delete", "")},
    {"QFileDialog", QT_TRANSLATE_NOOP3("QFileDialog", "Show &hidden files", "")},
    {"QFileSystemModel", QT_TRANSLATE_NOOP3("QFileSystemModel", "Name", "")},
    {"QFileSystemModel", QT_TRANSLATE_NOOP3("QFileSystemModel", "Size", "")},
    {"QFileSystemModel", QT_TRANSLATE_NOOP3("QFileSystemModel", "Type", "All other platforms")},
    {"QFileSystemModel", QT_TRANSLATE_NOOP3("QFileSystemModel", "Date Modified", "")},
    {"QAbstractFileIconProvider", QT_TRANSLATE_NOOP3("QAbstractFileIconProvider", "Folder", "All other platforms")},
    {"QAbstractFileIconProvider", QT_TRANSLATE_NOOP3("QAbstractFileIconProvider", "Drive", "")},
};

} // namespace

namespace UiLanguage {

QString settingKey()
{
    return QStringLiteral("terminal/language");
}

QString english()
{
    return QStringLiteral("en");
}

QStringList codes()
{
    return {english(), kHindi};
}

QString nativeName(const QString &code)
{
    if (code == english())
        return QStringLiteral("English");
    if (code == kHindi)
        return QStringLiteral("हिन्दी");
    return {};
}

QString normalized(const QString &value)
{
    const QString code = value.trimmed().toLower();
    return codes().contains(code) ? code : english();
}

QString chosen(const QSettings &terminalIni)
{
    const QString override = qEnvironmentVariable("RECHARGEDESK_LANG");
    if (!override.isEmpty())
        return normalized(override);
    return normalized(terminalIni.value(settingKey()).toString());
}

bool install(const QString &code, QObject *owner)
{
    if (code == english())
        return true;
    if (!codes().contains(code))
        return false;
    auto *translator = new QTranslator(owner);
    if (!translator->load(QStringLiteral(":/i18n/rechargedesk_%1.qm").arg(code))) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    return true;
}

QList<QtString> qtStrings()
{
    return {std::begin(kQtStrings), std::end(kQtStrings)};
}

} // namespace UiLanguage
