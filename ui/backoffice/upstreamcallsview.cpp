#include "upstreamcallsview.h"

#include "apiclient.h"
#include "clock.h"
#include "terminalcontext.h"
#include "upstreamapi.h"
#include "upstreamsaleinfo.h"
#include "upstreamstatus.h"
#include "widgets/look.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

/// "24 Nov 14:02:05" in IST.
QString callTime(qint64 atMs)
{
    return IstTime::toIst(QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC)).toString(QStringLiteral("dd MMM HH:mm:ss"));
}

} // namespace

UpstreamCallsView::UpstreamCallsView(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_state(new QLabel(this)), m_reference(new QLabel(this)),
      m_recheck(new QPushButton(tr("Recheck with &upstream"), this)), m_calls(new QTableWidget(0, 5, this)),
      m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("upstreamCalls"));
    auto *title = new QLabel(tr("Upstream"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    m_state->setObjectName(QStringLiteral("detailUpstreamState"));
    m_state->setWordWrap(true);
    m_reference->setObjectName(QStringLiteral("detailUpstreamReference"));
    m_reference->setWordWrap(true);
    m_reference->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_recheck->setObjectName(QStringLiteral("upstreamRecheckButton"));
    m_recheck->setToolTip(tr("Ask the upstream about this sale now"));
    m_calls->setObjectName(QStringLiteral("upstreamCallsTable"));
    m_calls->setHorizontalHeaderLabels(
        {tr("When (IST)"), tr("Endpoint"), tr("HTTP"), tr("Latency"), tr("Outcome / error")});
    m_calls->verticalHeader()->hide();
    m_calls->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Narrow endpoint (full text in its tooltip), the outcome and error take the rest.
    m_calls->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Interactive);
    m_calls->horizontalHeader()->setSectionResizeMode(4, QHeaderView::Stretch);
    m_calls->setColumnWidth(1, m_calls->fontMetrics().horizontalAdvance(QStringLiteral("/recharge/mobile/…")));
    m_calls->setTextElideMode(Qt::ElideRight);
    m_calls->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_calls->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_calls->setMinimumHeight(70);
    Look::set(m_note, "hint");
    m_note->setWordWrap(true);
    m_note->hide();

    auto *stateRow = new QHBoxLayout;
    stateRow->addWidget(m_state, 1);
    stateRow->addWidget(m_recheck);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addLayout(stateRow);
    layout->addWidget(m_reference);
    layout->addWidget(m_note);
    layout->addWidget(m_calls, 1);

    connect(m_recheck, &QPushButton::clicked, this, &UpstreamCallsView::onRecheckClicked);
    hide();
}

void UpstreamCallsView::clear()
{
    if (m_callsCall)
        m_callsCall->abort();
    m_transactionId = 0;
    m_calls->setRowCount(0);
    hide();
}

void UpstreamCallsView::showRecord(const TransactionRecord &record)
{
    const UpstreamSaleInfo upstream = UpstreamSaleInfo::fromRecord(record);
    const qint64 id = record.transactionId;
    if (!upstream.present || id <= 0) {
        clear();
        return;
    }
    m_transactionId = id;
    QString state = tr("State: %1").arg(upstream.stateText());
    // A refusal: what its reason means (the detail pane shows the upstream's own words above). While the sale
    // waits, the error says why its outcome is not known.
    const bool refused = upstream.state == QLatin1String("refused") || record.status == TransactionStatus::Failed;
    if (const QString meaning = upstream.meaningText(); refused && upstream.hasError() && !meaning.isEmpty())
        state += QLatin1Char('\n') + meaning;
    else if (!refused && upstream.hasError())
        state += QLatin1Char('\n') + upstream.errorText();
    m_state->setText(state);
    QString reference = tr("Reference at the upstream: %1").arg(upstream.referenceId);
    if (upstream.upstreamTransactionId > 0)
        reference += tr("  ·  its transaction id %1").arg(upstream.upstreamTransactionId);
    reference += tr("  ·  attempts %1").arg(upstream.attempts);
    m_reference->setText(reference);
    m_recheck->setEnabled(upstream.isWaiting() && !upstream.sendOnce && record.status == TransactionStatus::Pending);
    m_recheck->setToolTip(upstream.sendOnce ? tr("This upstream offers no status check: the sale ends by its "
                                                 "webhook, its statement or by hand (Resolve…)")
                                            : tr("Ask the upstream about this sale now"));
    show();
    loadCalls();
}

void UpstreamCallsView::loadCalls()
{
    if (m_callsCall)
        m_callsCall->abort();
    const qint64 id = m_transactionId;
    m_callsCall = UpstreamApi(m_context.api()).calls(id).then(this, [this, id](const Answer<UpstreamCallList> &answer) {
        m_callsCall = nullptr;
        if (id != m_transactionId)
            return;
        m_calls->setRowCount(0);
        if (!answer.ok()) {
            m_note->setText(tr("The upstream calls are not available: %1").arg(answer.error->description()));
            m_note->show();
            return;
        }
        const QList<UpstreamCall> &items = answer.value->items;
        m_note->setText(tr("No call was made to the upstream yet."));
        m_note->setVisible(items.isEmpty());
        m_calls->setRowCount(int(items.size()));
        for (int row = 0; row < items.size(); ++row) {
            const UpstreamCall &call = items.at(row);
            const QStringList cells{callTime(call.atMs), call.endpoint,
                                    call.httpStatus > 0 ? QString::number(call.httpStatus) : tr("—"),
                                    tr("%1 ms").arg(call.latencyMs),
                                    call.error.isEmpty() ? call.outcome : tr("%1 — %2").arg(call.outcome, call.error)};
            for (int column = 0; column < cells.size(); ++column)
                m_calls->setItem(row, column, new QTableWidgetItem(cells.at(column)));
            m_calls->item(row, 1)->setToolTip(call.method + QLatin1Char(' ') + cells.at(1));
            m_calls->item(row, 3)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_calls->item(row, 4)->setToolTip(cells.at(4));
        }
    });
}

void UpstreamCallsView::onRecheckClicked()
{
    if (m_transactionId <= 0)
        return;
    m_recheck->setEnabled(false);
    const qint64 id = m_transactionId;
    UpstreamApi(m_context.api()).recheck(id).then(this, [this, id](const Answer<TransactionRecord> &answer) {
        if (id != m_transactionId)
            return;
        if (!answer.ok()) {
            m_recheck->setEnabled(true);
            emit message(tr("Could not recheck with the upstream: %1").arg(answer.error->description()), true);
            loadCalls();
            return;
        }
        const TransactionRecord &record = *answer.value;
        const UpstreamSaleInfo upstream = UpstreamSaleInfo::fromRecord(record);
        emit message(tr("Asked the upstream. Now: %1 (%2).")
                         .arg(TransactionNames::status(answer.value->status), upstream.stateText()),
                     false);
        emit rechecked(record);
    });
}
