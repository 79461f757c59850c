// The Hindi translation file, resources/translations/rechargedesk_hi.ts, checked as a translator's
// reviewer would: every message finished and non-empty, the same %1/%n placeholders as its source,
// an accelerator wherever the source has one, keys, ₹ and protocol words kept; and not stale: lupdate
// run over ui/, app/ and core/ now finds exactly the messages the file holds.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <map>

namespace {

/// One <message> of a .ts file.
struct TsMessage
{
    QString context;
    QString source;
    QString comment; ///< the disambiguation, if any
    bool numerus = false;
    QString type;             ///< the translation's type attribute: empty when finished
    QStringList translations; ///< one, or one per numerus form
    qint64 line = 0;

    QString key() const
    {
        return QStringList{context, source, comment, numerus ? QStringLiteral("plural") : QString()}.join(QChar(0x1f));
    }
    QString where() const { return QStringLiteral("%1 \"%2\" (line %3)").arg(context, source, QString::number(line)); }
};

/// Reads the messages of a .ts file; `error` is set on a parse failure.
QList<TsMessage> readTs(const QString &path, QString *error)
{
    QList<TsMessage> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1").arg(path);
        return messages;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage message;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        const QStringView name = xml.name();
        if (name == u"name") {
            context = xml.readElementText();
        } else if (name == u"message") {
            message = TsMessage{};
            message.context = context;
            message.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            message.line = xml.lineNumber();
        } else if (name == u"source") {
            message.source = xml.readElementText();
        } else if (name == u"comment") {
            message.comment = xml.readElementText();
        } else if (name == u"translation") {
            message.type = xml.attributes().value(QLatin1String("type")).toString();
            if (!message.numerus) {
                message.translations = {xml.readElementText()};
                messages.append(message);
            }
        } else if (name == u"numerusform") {
            message.translations.append(xml.readElementText());
            if (message.translations.size() == 1)
                messages.append(message);
            else
                messages.last().translations = message.translations;
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path, QString::number(xml.lineNumber()), xml.errorString());
    return messages;
}

/// The placeholders of a text (%1…%99, %L1, %n, %Ln), sorted, repeats kept.
QStringList placeholders(const QString &text)
{
    static const QRegularExpression placeholder(QStringLiteral("%L?(?:[1-9][0-9]?|n)"));
    QStringList found;
    for (const QRegularExpressionMatch &match : placeholder.globalMatch(text))
        found.append(match.captured());
    found.sort();
    return found;
}

/// How many accelerators (&X, not && and not an HTML entity) a text has.
int accelerators(const QString &text)
{
    static const QRegularExpression accelerator(QStringLiteral("(?<!&)&(?![&#]|[a-z]+;)\\S"));
    int count = 0;
    for (QRegularExpressionMatchIterator it = accelerator.globalMatch(text); it.hasNext(); it.next())
        ++count;
    return count;
}

/// Words a translation must keep as they are: the rupee sign, key names, file patterns, protocol
/// and JSON words (anything with :// or _ or a -id/-signature suffix), and the product name.
QStringList keptWords(const QString &source)
{
    static const QRegularExpression kept(
        QStringLiteral("₹|⏎|\\bCtrl\\+\\w|\\((?:Enter|Esc)\\)|\\bF%\\d|\\*\\.\\w+|\\b[a-z]+://"
                       "(?:[^\\s\"]*[^\\s\".,;)])?|\\b\\w+_\\w+\\b|"
                       "\\bwebhook-\\w+|\\bRechargeDesk\\b|\\bOTP\\b|\\bPIN\\b|\\bAPI\\b|\\bUIDAI\\b"));
    QStringList words;
    for (const QRegularExpressionMatch &match : kept.globalMatch(source))
        words.append(match.captured());
    return words;
}

} // namespace

class TestTranslations final : public QObject
{
    Q_OBJECT

private:
    QList<TsMessage> m_messages;

private slots:
    void initTestCase()
    {
        QString error;
        m_messages = readTs(QStringLiteral(RECHARGEDESK_HI_TS), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(m_messages.size() > 600, qPrintable(QString::number(m_messages.size())));
    }

    void everyMessageIsFinished()
    {
        QStringList problems;
        for (const TsMessage &m : std::as_const(m_messages)) {
            if (!m.type.isEmpty())
                problems << QStringLiteral("%1: marked %2").arg(m.where(), m.type);
            if (m.numerus && m.translations.size() != 2)
                problems << QStringLiteral("%1: %2 plural forms, Hindi has 2")
                                .arg(m.where(), QString::number(m.translations.size()));
            for (const QString &translation : m.translations) {
                if (translation.trimmed().isEmpty())
                    problems << QStringLiteral("%1: empty translation").arg(m.where());
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    }

    void placeholdersAcceleratorsAndKeptWordsSurvive()
    {
        QStringList problems;
        for (const TsMessage &m : std::as_const(m_messages)) {
            const QStringList expected = placeholders(m.source);
            const int sourceAccelerators = accelerators(m.source);
            for (const QString &translation : m.translations) {
                if (placeholders(translation) != expected)
                    problems << QStringLiteral("%1: placeholders %2 became %3")
                                    .arg(m.where(), expected.join(u' '), placeholders(translation).join(u' '));
                if (accelerators(translation) != sourceAccelerators)
                    problems << QStringLiteral("%1: %2 accelerator(s) in the source, %3 in \"%4\"")
                                    .arg(m.where(), QString::number(sourceAccelerators),
                                         QString::number(accelerators(translation)), translation);
                for (const QString &word : keptWords(m.source)) {
                    if (!translation.contains(word))
                        problems
                            << QStringLiteral("%1: \"%2\" is missing from \"%3\"").arg(m.where(), word, translation);
                }
                if (m.source.count(u'\n') != translation.count(u'\n'))
                    problems << QStringLiteral("%1: line breaks differ").arg(m.where());
                if (m.source.contains(u";;") && m.source.count(u";;") != translation.count(u";;"))
                    problems << QStringLiteral("%1: file dialog filters (;;) differ").arg(m.where());
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    }

    void mostMessagesAreInDevanagari()
    {
        // A guard against a file left in English: messages that are only placeholders, numbers,
        // codes or product names may stay Latin; everything else is written in Devanagari.
        // UTR (the bank's transfer reference), GSTIN (the GST number) and MiB (a file size) are
        // written in Latin letters at Indian counters and on bank slips, as UPI is (issue 30).
        static const QRegularExpression devanagari(QStringLiteral("[\\x{0900}-\\x{097F}]"));
        static const QRegularExpression letters(QStringLiteral("[A-Za-z]{3,}"));
        static const QRegularExpression untranslatable(
            QStringLiteral("%L?(?:[1-9][0-9]?|n)|<[^>]+>|"
                           "\\b(?:HTTP|SMS|DTH|OTP|PIN|API|IST|UPI|UTR|GSTIN|MiB|RechargeDesk|OK|URL|ID|webhook-id)\\b|"
                           "https?://\\S+"));
        QStringList latin;
        for (const TsMessage &m : std::as_const(m_messages)) {
            QString words = m.source;
            words.remove(untranslatable);
            if (!letters.match(words).hasMatch())
                continue;
            if (!devanagari.match(m.translations.constFirst()).hasMatch())
                latin << m.where();
        }
        QVERIFY2(latin.isEmpty(), qPrintable(latin.join(u'\n')));
    }

    void fileMatchesTheCode()
    {
        // lupdate over the same directories the build's update_translations target reads: a new,
        // changed or removed tr() string in the code makes this fail until the .ts is updated.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fresh = dir.filePath(QStringLiteral("fresh_hi.ts"));
        const QDir root(QStringLiteral(RECHARGEDESK_SOURCE_DIR));
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(QStringLiteral(RECHARGEDESK_LUPDATE),
                      {QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none"),
                       root.filePath(QStringLiteral("ui")), root.filePath(QStringLiteral("app")),
                       root.filePath(QStringLiteral("core")), QStringLiteral("-ts"), fresh});
        QVERIFY2(lupdate.waitForFinished(120'000), qPrintable(lupdate.errorString()));
        QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
                 lupdate.readAll().constData());

        QString error;
        const QList<TsMessage> code = readTs(fresh, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        std::map<QString, const TsMessage *> inCode;
        std::map<QString, const TsMessage *> inFile;
        for (const TsMessage &m : code)
            inCode.emplace(m.key(), &m);
        for (const TsMessage &m : std::as_const(m_messages))
            inFile.emplace(m.key(), &m);
        QStringList problems;
        for (const auto &[key, m] : inCode) {
            if (!inFile.count(key))
                problems << QStringLiteral("not in the .ts (new in the code): %1 \"%2\"").arg(m->context, m->source);
        }
        for (const auto &[key, m] : inFile) {
            if (!inCode.count(key))
                problems << QStringLiteral("no longer in the code: %1").arg(m->where());
        }
        if (!problems.isEmpty())
            problems << QStringLiteral("Run: cmake --build <build dir> --target update_translations, then translate.");
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(inFile.size(), size_t(m_messages.size())); // no message twice
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
