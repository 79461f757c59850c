#pragma once

#include "money.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <array>
#include <optional>

/// A clerk's shift at a terminal (issue 28, "Shifts"): the drawer's opening cash, the sales taken in it by
/// tender, the cash moved in and out, and at the close the count by denomination against the expected cash. The
/// `shift` entity of /api/v1/shifts (api-conventions.md "Beyond the spec", docs/api/openapi.yaml). Money in paise,
/// times are instants (written as IST "YYYY-MM-DD HH:MM:SS").
///
/// expected cash = opening + cash sales taken - cash refunds + cash in - cash out. A sale counts as taken when it
/// is SUCCESS, PENDING, or FAILED after the customer paid (failed_after_pending); those failed ones are also the
/// cash refunds (tender cash) and the UPI to return (tender upi).
struct Shift
{
    /// The notes a drawer is counted by, in rupees, largest first (coins are counted as one total).
    static constexpr std::array<int, 6> kDenominations{500, 200, 100, 50, 20, 10};

    /// A number of sales and their bill amount.
    struct TenderTotal
    {
        qint64 count = 0;
        Paise amount = 0;

        friend bool operator==(const TenderTotal &, const TenderTotal &) = default;
        /// {count, amount "₹249.00"}.
        QJsonObject toJson() const;
        static std::optional<TenderTotal> fromJson(const QJsonObject &json, QString *error);
    };
    /// Sales by tender: paid in cash, by UPI, and those whose client recorded no tender.
    struct TenderTotals
    {
        TenderTotal cash;
        TenderTotal upi;
        TenderTotal unrecorded;

        friend bool operator==(const TenderTotals &, const TenderTotals &) = default;
        /// {cash, upi, unrecorded}, each a TenderTotal.
        QJsonObject toJson() const;
        static std::optional<TenderTotals> fromJson(const QJsonObject &json, QString *error);
    };
    /// Cash put into ("in") or taken out of ("out") the drawer, with the reason a person gave (PIN-confirmed).
    struct CashMove
    {
        qint64 id = 0;
        QString direction; ///< "in" / "out"
        Paise amount = 0;  ///< > 0
        QString reason;
        QDateTime at;
        QString by; ///< the person who moved it

        friend bool operator==(const CashMove &, const CashMove &) = default;
        /// {id, direction, amount, reason, at, by}.
        QJsonObject toJson() const;
        static std::optional<CashMove> fromJson(const QJsonObject &json, QString *error);
    };
    /// A sale paid by UPI that failed after the customer paid: money to send back by UPI.
    struct UpiReturn
    {
        qint64 transactionId = 0;
        QString number; ///< phone or subscriber number; "" for a voucher
        Paise amount = 0;

        friend bool operator==(const UpiReturn &, const UpiReturn &) = default;
        /// {transaction_id, number, amount}.
        QJsonObject toJson() const;
        static std::optional<UpiReturn> fromJson(const QJsonObject &json, QString *error);
    };

    qint64 id = 0;
    QString terminal; ///< the terminal's name as the clerk opened it (1-40 characters)
    QString clerk;    ///< the person's name
    QString mode;     ///< "test" / "live"
    QString state;    ///< "open" / "closed"
    QDateTime openedAt;
    QDateTime closedAt; ///< invalid while open
    Paise openingCash = 0;
    TenderTotals sales; ///< taken in this shift (bill amounts)
    Paise cashIn = 0;
    Paise cashOut = 0;
    TenderTotal cashRefunds;           ///< cash sales that failed after the customer paid
    QList<UpiReturn> upiToReturn;      ///< every failed UPI sale: UPI is collected before the sale is sent
    bool blind = false;                ///< the shop counts blind (expected hidden from clerks while open)
    std::optional<Paise> expectedCash; ///< nullopt when hidden (blind count)
    std::optional<Paise> countedCash;  ///< nullopt while open
    std::optional<Paise> difference;   ///< counted - expected; nullopt while open or hidden
    QMap<int, qint64> counts;          ///< notes counted by denomination (rupees); empty while open
    std::optional<Paise> coins;        ///< the coins counted; nullopt while open
    QString closedBy;                  ///< who closed it; "" while open
    QString closeNote;                 ///< "" when none
    QList<CashMove> cashMoves;         ///< oldest first

    bool isOpen() const { return state == QLatin1String("open"); }

    /// The cash of a count: each denomination (rupees) × its number of notes, plus `coins`, in paise.
    static Paise countedTotal(const QMap<int, qint64> &counts, Paise coins);

    /// The `shift` entity: {entity "shift", id, terminal, clerk, mode, state, opened_at, closed_at|null,
    /// opening_cash, sales, cash_in, cash_out, cash_refunds, upi_to_return, blind, expected_cash|null,
    /// counted_cash|null, difference|null, counts {"500": n, …}|null, coins|null, closed_by|null, close_note|null,
    /// cash_moves}, money as "₹2000.00".
    QJsonObject toJson() const;
    /// Reads toJson()'s form strictly: a missing or mistyped field, an unknown mode/state/direction or a count of
    /// a denomination not in kDenominations is an error naming it; nullopt with *error then.
    static std::optional<Shift> fromJson(const QJsonObject &json, QString *error);
};
