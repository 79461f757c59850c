#include "walletpage.h"

#include "backofficeui.h"
#include "collectionmodel.h"
#include "money.h"
#include "shopapi.h"
#include "terminalcontext.h"
#include "walletapi.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace {

using BackOfficeUi::actorText;
using BackOfficeUi::card;

QString kindText(const QString &kind)
{
    if (kind == QLatin1String("topup"))
        return WalletPage::tr("Top-up");
    if (kind == QLatin1String("debit"))
        return WalletPage::tr("Sale");
    if (kind == QLatin1String("refund"))
        return WalletPage::tr("Refund");
    if (kind == QLatin1String("opening"))
        return WalletPage::tr("Opening balance");
    return kind;
}

QList<CollectionColumn> ledgerColumns()
{
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {
        {WalletPage::tr("When (IST)"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "datetime"); }},
        {WalletPage::tr("Kind"), [](const QJsonObject &i) { return kindText(BackOfficeUi::itemText(i, "kind")); }},
        {WalletPage::tr("Amount"),
         [](const QJsonObject &i) { return Money::displayText(BackOfficeUi::itemText(i, "amount")); }, right},
        {WalletPage::tr("Transaction"),
         [](const QJsonObject &i) {
             const QJsonValue id = i.value(QStringLiteral("transaction_id"));
             return id.isDouble() ? QString::number(id.toInteger()) : QString();
         },
         right},
        {WalletPage::tr("By"), [](const QJsonObject &i) { return actorText(BackOfficeUi::itemText(i, "actor")); }},
        {WalletPage::tr("Note"), [](const QJsonObject &i) { return BackOfficeUi::itemText(i, "note"); }},
    };
}

/// Filters the loaded ledger rows by kind (exact API value) and by text in any column.
class LedgerFilter final : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setFilter(const QString &kind, const QString &text)
    {
        m_kind = kind;
        m_text = text.trimmed();
        invalidateRowsFilter();
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override
    {
        const QAbstractItemModel *source = sourceModel();
        if (!m_kind.isEmpty()) {
            const QVariantMap item = source->index(sourceRow, 0, sourceParent).data(CollectionModel::ItemRole).toMap();
            if (item.value(QStringLiteral("kind")).toString() != m_kind)
                return false;
        }
        if (m_text.isEmpty())
            return true;
        for (int column = 0; column < source->columnCount(sourceParent); ++column) {
            if (source->index(sourceRow, column, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
                return true;
        }
        return false;
    }

private:
    QString m_kind;
    QString m_text;
};

} // namespace

WalletPage::WalletPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context),
      m_ledger(new CollectionModel(context.api(), WalletApi::ledgerPath(), ledgerColumns(), 100, this)),
      m_filter(new LedgerFilter(this)), m_balance(new QLabel(QStringLiteral("—"), this)), m_mode(new QLabel(this)),
      m_amount(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, 7, this)), m_note(new QLineEdit(this)),
      m_topup(new QPushButton(tr("&Top up"), this)), m_topupNotice(BackOfficeUi::notice(this)),
      m_threshold(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, 7, this)),
      m_saveThreshold(new QPushButton(tr("Sa&ve threshold"), this)), m_thresholdNotice(BackOfficeUi::notice(this)),
      m_kind(new QComboBox(this)), m_search(new QLineEdit(this)), m_ledgerError(BackOfficeUi::generalError(this)),
      m_table(nullptr)
{
    setObjectName(QStringLiteral("page"));
    const bool test = context.api().isTestMode();
    m_filter->setSourceModel(m_ledger);
    QLabel *topupGeneral = BackOfficeUi::generalError(this);
    QLabel *thresholdGeneral = BackOfficeUi::generalError(this);
    m_topupErrors = std::make_unique<FormErrors>(topupGeneral);
    m_thresholdErrors = std::make_unique<FormErrors>(thresholdGeneral);

    m_balance->setObjectName(QStringLiteral("walletBalance"));
    BackOfficeUi::makeBigValue(m_balance);
    m_topupNotice->setObjectName(QStringLiteral("topupNotice"));
    m_thresholdNotice->setObjectName(QStringLiteral("thresholdNotice"));
    m_ledgerError->setObjectName(QStringLiteral("ledgerError"));
    m_mode->setObjectName(QStringLiteral("hint"));
    m_mode->setWordWrap(true);
    m_mode->setText(test ? tr("Test wallet: sandbox money for trying the terminal. Top-ups are free.")
                         : tr("Live wallet: every top-up is recorded with who did it and why."));
    auto *refresh = new QPushButton(tr("&Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshWallet"));

    // Top-up
    m_amount->setObjectName(QStringLiteral("topupAmount"));
    m_amount->setPlaceholderText(tr("Rupees, e.g. 5000"));
    m_note->setObjectName(QStringLiteral("topupNote"));
    m_note->setPlaceholderText(test ? tr("Optional") : tr("Required: why, e.g. cash deposit slip 4411"));
    m_note->setMaxLength(200);
    m_topup->setObjectName(QStringLiteral("topupButton"));
    BackOfficeUi::makePrimary(m_topup);
    QLabel *amountError = FormErrors::makeLabel(this);
    QLabel *noteError = FormErrors::makeLabel(this);
    m_topupErrors->addField(QStringLiteral("amount"), amountError);
    m_topupErrors->addField(QStringLiteral("note"), noteError);

    QWidget *balanceCard = card(this);
    auto *balanceLayout = new QVBoxLayout(balanceCard);
    balanceLayout->setContentsMargins(20, 16, 20, 16);
    auto *balanceTitle = new QLabel(test ? tr("Test wallet balance") : tr("Wallet balance"), balanceCard);
    auto *balanceRow = new QHBoxLayout;
    balanceRow->addWidget(m_balance, 1);
    balanceRow->addWidget(refresh);
    balanceLayout->addWidget(balanceTitle);
    balanceLayout->addLayout(balanceRow);
    balanceLayout->addWidget(m_mode);

    QWidget *topupCard = card(this);
    auto *topupForm = new QFormLayout;
    topupForm->setVerticalSpacing(6);
    topupForm->addRow(tr("Amount (₹)"), m_amount);
    topupForm->addRow(QString(), amountError);
    topupForm->addRow(tr("Note"), m_note);
    topupForm->addRow(QString(), noteError);
    auto *topupLayout = new QVBoxLayout(topupCard);
    topupLayout->setContentsMargins(20, 16, 20, 16);
    topupLayout->addWidget(BackOfficeUi::heading(tr("Top up"), topupCard));
    topupLayout->addLayout(topupForm);
    topupLayout->addWidget(m_topup);
    topupLayout->addWidget(m_topupNotice);
    topupLayout->addWidget(topupGeneral);

    // Low-balance threshold
    m_threshold->setObjectName(QStringLiteral("lowBalanceThreshold"));
    m_threshold->setPlaceholderText(tr("Rupees"));
    m_saveThreshold->setObjectName(QStringLiteral("saveThreshold"));
    QLabel *thresholdError = FormErrors::makeLabel(this);
    m_thresholdErrors->addField(QStringLiteral("low_balance_threshold_rupees"), thresholdError);
    QWidget *thresholdCard = card(this);
    auto *thresholdRow = new QHBoxLayout;
    thresholdRow->addWidget(m_threshold, 1);
    thresholdRow->addWidget(m_saveThreshold);
    auto *thresholdLayout = new QVBoxLayout(thresholdCard);
    thresholdLayout->setContentsMargins(20, 16, 20, 16);
    thresholdLayout->addWidget(BackOfficeUi::heading(tr("Low-balance warning"), thresholdCard));
    thresholdLayout->addWidget(BackOfficeUi::hint(
        tr("The status bar turns red when the balance falls below this many rupees."), thresholdCard));
    thresholdLayout->addLayout(thresholdRow);
    thresholdLayout->addWidget(thresholdError);
    thresholdLayout->addWidget(m_thresholdNotice);
    thresholdLayout->addWidget(thresholdGeneral);

    // Ledger
    m_kind->setObjectName(QStringLiteral("ledgerKind"));
    m_kind->addItem(tr("All entries"), QString());
    m_kind->addItem(tr("Top-ups"), QStringLiteral("topup"));
    m_kind->addItem(tr("Sales"), QStringLiteral("debit"));
    m_kind->addItem(tr("Refunds"), QStringLiteral("refund"));
    m_kind->addItem(tr("Opening balance"), QStringLiteral("opening"));
    m_search->setObjectName(QStringLiteral("ledgerSearch"));
    m_search->setPlaceholderText(tr("Search note, person, transaction id…"));
    m_search->setClearButtonEnabled(true);
    m_table = BackOfficeUi::table(m_filter, QStringLiteral("ledgerTable"), this);
    m_table->horizontalHeader()->resizeSection(0, 165);
    m_table->horizontalHeader()->resizeSection(1, 135);
    m_table->horizontalHeader()->resizeSection(2, 105);
    m_table->horizontalHeader()->resizeSection(3, 100);
    m_table->horizontalHeader()->resizeSection(4, 110);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_kind);
    filterRow->addWidget(m_search, 1);
    auto *ledgerLayout = new QVBoxLayout;
    ledgerLayout->addWidget(BackOfficeUi::heading(tr("Ledger (newest first)"), this));
    ledgerLayout->addLayout(filterRow);
    ledgerLayout->addWidget(
        BackOfficeUi::hint(tr("Filters apply to the entries loaded so far; scroll down to load older ones."), this));
    ledgerLayout->addWidget(m_ledgerError);
    ledgerLayout->addWidget(m_table, 1);

    auto *left = new QVBoxLayout;
    left->setSpacing(12);
    left->addWidget(balanceCard);
    left->addWidget(topupCard);
    left->addWidget(thresholdCard);
    left->addStretch();
    auto *leftWidget = new QWidget(this);
    leftWidget->setLayout(left);
    left->setContentsMargins(0, 0, 0, 0);
    auto *body = new QHBoxLayout;
    body->setSpacing(12);
    body->addWidget(BackOfficeUi::sideColumn(leftWidget, 400, this));
    body->addLayout(ledgerLayout, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(BackOfficeUi::title(tr("Wallet"), this));
    layout->addLayout(body, 1);

    setTabOrder(m_amount, m_note);
    setTabOrder(m_note, m_topup);
    setTabOrder(m_topup, m_threshold);
    setTabOrder(m_threshold, m_saveThreshold);
    setTabOrder(m_saveThreshold, m_kind);
    setTabOrder(m_kind, m_search);
    setTabOrder(m_search, m_table);

    connect(refresh, &QPushButton::clicked, this, &WalletPage::refresh);
    connect(m_amount, &QLineEdit::returnPressed, m_note, qOverload<>(&QWidget::setFocus));
    connect(m_note, &QLineEdit::returnPressed, this, &WalletPage::onTopupClicked);
    connect(m_topup, &QPushButton::clicked, this, &WalletPage::onTopupClicked);
    connect(m_threshold, &QLineEdit::returnPressed, this, &WalletPage::onSaveThresholdClicked);
    connect(m_saveThreshold, &QPushButton::clicked, this, &WalletPage::onSaveThresholdClicked);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &WalletPage::applyLedgerFilter);
    connect(m_search, &QLineEdit::textChanged, this, &WalletPage::applyLedgerFilter);
    connect(m_ledger, &CollectionModel::loaded, m_ledgerError, &QWidget::hide);
    connect(m_ledger, &CollectionModel::failed, this, [this](const ApiError &error) {
        m_ledgerError->setText(tr("The ledger could not be loaded: %1").arg(error.description()));
        m_ledgerError->show();
    });
}

WalletPage::~WalletPage() = default;

void WalletPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    m_amount->setFocus();
}

void WalletPage::refresh()
{
    loadBalance();
    loadThreshold();
    m_ledger->reload();
}

void WalletPage::loadBalance()
{
    if (m_balanceCall)
        m_balanceCall->abort();
    m_balanceCall = WalletApi(m_context.api()).balance().then(this, [this](const Answer<WalletBalance> &answer) {
        if (!answer.ok()) {
            m_balance->setText(QStringLiteral("—"));
            m_balance->setToolTip(answer.error->description());
            return;
        }
        m_balance->setText(Money::formatIndian(answer.value->balance));
        m_balance->setToolTip(QString());
    });
}

void WalletPage::loadThreshold()
{
    ShopApi(m_context.api()).get().then(this, [this](const Answer<ShopInfo> &answer) {
        if (!answer.ok() || m_threshold->hasFocus())
            return; // keep what the person is typing
        m_threshold->setText(QString::number(answer.value->lowBalanceThreshold / Money::kPaisePerRupee));
    });
}

void WalletPage::applyLedgerFilter()
{
    static_cast<LedgerFilter *>(m_filter)->setFilter(m_kind->currentData().toString(), m_search->text());
}

void WalletPage::onTopupClicked()
{
    if (m_busy)
        return;
    m_topupErrors->clear();
    BackOfficeUi::showNotice(m_topupNotice, QString());
    bool ok = false;
    const qint64 rupees = m_amount->text().toLongLong(&ok);
    if (!ok || rupees <= 0) {
        m_topupErrors->showAt(QStringLiteral("amount"), tr("Enter the top-up in whole rupees, e.g. 5000."));
        m_amount->setFocus();
        return;
    }
    const QString note = m_note->text().trimmed();
    if (m_context.api().isTestMode()) {
        sendTopup(rupees, note);
        return;
    }
    if (note.isEmpty()) {
        m_topupErrors->showAt(QStringLiteral("note"),
                              tr("A live top-up needs a note saying why (e.g. the deposit slip)."));
        m_note->setFocus();
        return;
    }
    BackOfficeUi::confirm(this, tr("Live top-up"),
                          tr("Add %1 to the LIVE wallet?\nNote: %2\nThis is recorded with your name.")
                              .arg(Money::formatIndian(rupees * Money::kPaisePerRupee), note),
                          tr("Top up"), [this, rupees, note] { sendTopup(rupees, note); });
}

void WalletPage::sendTopup(qint64 rupees, const QString &note)
{
    m_busy = true;
    m_topup->setEnabled(false);
    WalletApi(m_context.api()).topUp(rupees, note).then(this, [this, rupees](const Answer<WalletBalance> &answer) {
        m_busy = false;
        m_topup->setEnabled(true);
        if (!answer.ok()) {
            m_topupErrors->show(*answer.error);
            m_amount->setFocus();
            return;
        }
        const QString balance = Money::formatIndian(answer.value->balance);
        m_balance->setText(balance);
        BackOfficeUi::showNotice(
            m_topupNotice,
            tr("Added %1. New balance %2.").arg(Money::formatIndian(rupees * Money::kPaisePerRupee), balance));
        m_amount->clear();
        m_note->clear();
        m_amount->setFocus();
        m_ledger->reload();
        emit m_context.salesChanged(); // the status bar shows the wallet
    });
}

void WalletPage::onSaveThresholdClicked()
{
    m_thresholdErrors->clear();
    BackOfficeUi::showNotice(m_thresholdNotice, QString());
    bool ok = false;
    const qint64 rupees = m_threshold->text().toLongLong(&ok);
    if (!ok || rupees < 0) {
        m_thresholdErrors->showAt(QStringLiteral("low_balance_threshold_rupees"),
                                  tr("Enter the threshold in whole rupees (0 turns the warning off)."));
        return;
    }
    m_saveThreshold->setEnabled(false);
    ShopApi(m_context.api())
        .update(QJsonObject{{QStringLiteral("low_balance_threshold_rupees"), rupees}})
        .then(this, [this](const Answer<ShopInfo> &answer) {
            m_saveThreshold->setEnabled(true);
            if (!answer.ok()) {
                m_thresholdErrors->show(*answer.error);
                return;
            }
            BackOfficeUi::showNotice(
                m_thresholdNotice,
                tr("Saved: warn below %1.").arg(Money::formatIndian(answer.value->lowBalanceThreshold)));
            emit m_context.salesChanged();
        });
}
