#include "salechecks.h"

#include "money.h"
#include "operatorcatalog.h"
#include "validators.h"

#include <QUuid>

std::optional<qint64> SaleChecks::rupees(const QString &text)
{
    if (!Validators::isAsciiDigits(text) || text.size() > 9)
        return std::nullopt;
    return text.toLongLong();
}

QString SaleChecks::limitsText(const OperatorInfo &op)
{
    return tr("%1 – %2 for %3")
        .arg(Money::formatIndianRupees(op.minRupees), Money::formatIndianRupees(op.maxRupees), op.name);
}

QString SaleChecks::amountProblem(const QString &text, const OperatorInfo *op)
{
    if (text.isEmpty())
        return tr("Enter the amount in whole rupees.");
    const std::optional<qint64> amount = rupees(text);
    if (!amount)
        return tr("The amount is whole rupees: digits only.");
    if (!op)
        return tr("Choose the operator first.");
    if (*amount < op->minRupees || *amount > op->maxRupees)
        return tr("The amount must be %1.").arg(limitsText(*op));
    return {};
}

QString SaleChecks::phoneProblem(const QString &text)
{
    if (text.isEmpty())
        return tr("Enter the 10-digit mobile number.");
    if (!Validators::isAsciiDigits(text) || text.size() != 10)
        return tr("A mobile number has exactly 10 digits.");
    if (!Validators::isPhoneNumber(text))
        return tr("A mobile number starts with 6, 7, 8 or 9.");
    return {};
}

QString SaleChecks::dthNumberProblem(const QString &text, const OperatorInfo *op)
{
    if (!op)
        return tr("Choose the DTH operator first.");
    if (text.isEmpty())
        return tr("Enter the subscriber number: %1.").arg(op->numberHint);
    if (!Validators::isDthNumber(text, *op))
        return tr("Not a %1 number. Expected: %2.").arg(op->name, op->numberHint);
    return {};
}

QString SaleChecks::referenceProblem(const QString &text)
{
    if (text.isEmpty() || Validators::isReferenceId(text))
        return {};
    return tr("A reference may only use letters, digits, _ and - (at most 64).");
}

QString SaleChecks::emailProblem(const QString &text)
{
    if (text.isEmpty() || Validators::isEmail(text))
        return {};
    return tr("Not an e-mail address (like name@example.com).");
}

ApiError SaleChecks::plainError(const ApiError &error)
{
    QString plain;
    if (error.reason() == QLatin1String("reference_id_reused"))
        plain = tr("This reference was already used for a different sale. Leave it empty or type a new one.");
    else if (error.httpStatus() == 401)
        plain = tr("The server did not accept this terminal's key. Ask the admin to set the terminal up again.");
    else if (error.httpStatus() == 403)
        plain = tr("This terminal's key may not make this sale (revoked or wrong scope). Ask the admin.");
    else
        return error;
    return ApiError(error.httpStatus(), error.code(), error.reason(), plain, error.field());
}

QString SaleChecks::newReferenceId()
{
    return QStringLiteral("rd-") + QUuid::createUuid().toString(QUuid::Id128);
}

QString SaleChecks::groupRedeemCode(const QString &code)
{
    QString plain;
    for (const QChar c : code) {
        if ((c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
            (c >= QLatin1Char('a') && c <= QLatin1Char('z')))
            plain.append(c);
        else if (c != QLatin1Char('-') && c != QLatin1Char(' '))
            return code;
    }
    if (plain.size() != 16)
        return code;
    return plain.mid(0, 4) + QLatin1Char('-') + plain.mid(4, 4) + QLatin1Char('-') + plain.mid(8, 4) +
           QLatin1Char('-') + plain.mid(12, 4);
}
