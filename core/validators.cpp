#include "validators.h"

#include "operatorcatalog.h"

#include <QRegularExpression>
#include <QStringList>

namespace Validators {

namespace {

// Verhoeff's tables: multiplication in D5, the position permutation, and the inverse.
constexpr int kMultiply[10][10] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 0, 6, 7, 8, 9, 5},
                                   {2, 3, 4, 0, 1, 7, 8, 9, 5, 6}, {3, 4, 0, 1, 2, 8, 9, 5, 6, 7},
                                   {4, 0, 1, 2, 3, 9, 5, 6, 7, 8}, {5, 9, 8, 7, 6, 0, 4, 3, 2, 1},
                                   {6, 5, 9, 8, 7, 1, 0, 4, 3, 2}, {7, 6, 5, 9, 8, 2, 1, 0, 4, 3},
                                   {8, 7, 6, 5, 9, 3, 2, 1, 0, 4}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}};
constexpr int kPermute[8][10] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 5, 7, 6, 2, 8, 3, 0, 9, 4},
                                 {5, 8, 0, 3, 7, 9, 6, 1, 4, 2}, {8, 9, 1, 6, 0, 4, 3, 5, 2, 7},
                                 {9, 4, 5, 3, 1, 2, 6, 8, 7, 0}, {4, 2, 8, 6, 5, 7, 3, 9, 0, 1},
                                 {2, 7, 9, 3, 8, 0, 6, 4, 1, 5}, {7, 0, 4, 6, 9, 1, 3, 2, 5, 8}};
constexpr int kInverse[10] = {0, 4, 3, 2, 1, 5, 6, 7, 8, 9};

bool isAsciiDigit(QChar c)
{
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

bool isAsciiLetterOrDigit(QChar c)
{
    return isAsciiDigit(c) || (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('Z'));
}

// Runs the Verhoeff recurrence over `digits`, the rightmost taking position `offset`.
int verhoeffState(const QString &digits, int offset)
{
    int check = 0;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        const int digit = digits.at(digits.size() - 1 - i).unicode() - '0';
        check = kMultiply[check][kPermute[(i + offset) % 8][digit]];
    }
    return check;
}

} // namespace

bool isAsciiDigits(const QString &text)
{
    if (text.isEmpty())
        return false;
    for (QChar c : text) {
        if (!isAsciiDigit(c))
            return false;
    }
    return true;
}

bool isPhoneNumber(const QString &text)
{
    return text.size() == 10 && isAsciiDigits(text) && text.at(0) >= QLatin1Char('6');
}

bool isAadhaarNumber(const QString &text)
{
    return text.size() == 12 && isAsciiDigits(text) && text.at(0) >= QLatin1Char('2') && verhoeffValid(text);
}

bool verhoeffValid(const QString &digits)
{
    return isAsciiDigits(digits) && verhoeffState(digits, 0) == 0;
}

int verhoeffCheckDigit(const QString &digits)
{
    if (!isAsciiDigits(digits))
        return -1;
    return kInverse[verhoeffState(digits, 1)];
}

bool isDthNumber(const QString &text, const OperatorInfo &dthOperator)
{
    if (!isAsciiDigits(text))
        return false;
    return isPhoneNumber(text) || dthOperator.numberPattern.match(text).hasMatch();
}

bool isEmail(const QString &text)
{
    if (text.isEmpty() || text.size() > 254 || text.count(QLatin1Char('@')) != 1)
        return false;
    for (QChar c : text) {
        if (c.isSpace() || c.category() == QChar::Other_Control)
            return false;
    }
    const qsizetype at = text.indexOf(QLatin1Char('@'));
    const QString local = text.left(at);
    const QString domain = text.mid(at + 1);
    if (local.isEmpty() || local.size() > 64 || !domain.contains(QLatin1Char('.')))
        return false;
    const QStringList labels = domain.split(QLatin1Char('.'));
    for (const QString &label : labels) {
        if (label.isEmpty())
            return false;
    }
    return true;
}

bool isPlainText(const QString &text, bool allowNewlines)
{
    for (const QChar c : text) {
        if (allowNewlines && c == QLatin1Char('\n'))
            continue;
        const char16_t u = c.unicode();
        if (c.category() == QChar::Other_Control || u == 0x2028 || u == 0x2029 || (u >= 0x202A && u <= 0x202E) ||
            (u >= 0x2066 && u <= 0x2069))
            return false;
    }
    return true;
}

bool isReferenceId(const QString &text)
{
    if (text.isEmpty() || text.size() > 64)
        return false;
    for (QChar c : text) {
        if (!isAsciiLetterOrDigit(c) && c != QLatin1Char('_') && c != QLatin1Char('-'))
            return false;
    }
    return true;
}

bool isUpiVpa(const QString &text)
{
    const qsizetype at = text.indexOf(QLatin1Char('@'));
    if (at < 0 || text.indexOf(QLatin1Char('@'), at + 1) >= 0)
        return false;
    const QStringView name = QStringView(text).left(at);
    const QStringView handle = QStringView(text).mid(at + 1);
    if (name.size() < 2 || name.size() > 256 || handle.size() < 2 || handle.size() > 64)
        return false;
    for (QChar c : name) {
        if (!isAsciiLetterOrDigit(c) && c != QLatin1Char('.') && c != QLatin1Char('_') && c != QLatin1Char('-'))
            return false;
    }
    for (QChar c : handle) {
        if (!isAsciiLetterOrDigit(c))
            return false;
    }
    return true;
}

QChar gstinCheckCharacter(const QString &first14)
{
    static const QString alphabet = QStringLiteral("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    if (first14.size() != 14)
        return {};
    int sum = 0;
    for (qsizetype i = 0; i < first14.size(); ++i) {
        const qsizetype value = alphabet.indexOf(first14.at(i));
        if (value < 0)
            return {};
        const int product = int(value) * (i % 2 == 0 ? 1 : 2);
        sum += product / 36 + product % 36;
    }
    return alphabet.at((36 - sum % 36) % 36);
}

bool isGstin(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$"));
    return pattern.match(text).hasMatch() && gstinCheckCharacter(text.left(14)) == text.at(14);
}

} // namespace Validators
