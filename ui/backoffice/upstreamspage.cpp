#include "upstreamspage.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "statementscard.h"
#include "terminalcontext.h"
#include "upstreamapi.h"
#include "upstreamdialog.h"
#include "upstreamstatus.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace {

/// The priority a new upstream starts at: after the last one.
int nextPriority(const QList<UpstreamInfo> &upstreams)
{
    int last = -1;
    for (const UpstreamInfo &info : upstreams)
        last = qMax(last, info.priority);
    return last < 0 ? 100 : qMin(last + 10, 1000);
}

} // namespace

QString UpstreamsPage::kindText(const QString &kind)
{
    if (kind == QLatin1String("spec"))
        return tr("Promises the spec only — sends each sale once");
    if (kind == QLatin1String("rechargedesk"))
        return tr("RechargeDesk");
    return tr("Not read yet");
}

QString UpstreamsPage::sellsText(const UpstreamInfo &info)
{
    QStringList services;
    for (const QString &service : info.services)
        services << UpstreamDialog::serviceName(service);
    const QString what = services.isEmpty() ? tr("All services") : services.join(QStringLiteral(", "));
    const QString operators =
        info.operators.isEmpty() ? tr("all operators") : info.operators.join(QStringLiteral(", "));
    return tr("%1 · %2").arg(what, operators);
}

QString UpstreamsPage::healthText(const UpstreamInfo &info)
{
    const UpstreamStatus status = UpstreamStatus::from(info);
    if (!status.configured)
        return tr("Not configured");
    if (status.state == QLatin1String("online"))
        return status.lastContact.isValid()
                   ? tr("Online · last contact %1").arg(UpstreamStatus::istClock(status.lastContact))
                   : tr("Online");
    if (status.state == QLatin1String("unreachable"))
        return status.since.isValid() ? tr("Unreachable since %1").arg(UpstreamStatus::istClock(status.since))
                                      : tr("Unreachable");
    return tr("Not contacted yet");
}

UpstreamsPage::UpstreamsPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_live(!context.api().isTestMode()),
      m_table(new QTableWidget(0, ColumnCount, this)), m_liveOnly(new QLabel(this)), m_state(new QLabel(this)),
      m_kind(new QLabel(this)), m_webhook(new QLabel(this)), m_add(new QPushButton(tr("&Add upstream…"), this)),
      m_edit(new QPushButton(tr("&Edit…"), this)), m_check(new QPushButton(tr("C&heck"), this)),
      m_remove(new QPushButton(tr("Re&move…"), this)), m_checkResult(new QLabel(this)),
      m_notice(BackOfficeUi::notice(this)), m_statements(new StatementsCard(context, this))
{
    setObjectName(QStringLiteral("upstreamsPage"));
    auto *card = BackOfficeUi::card(this);
    card->setObjectName(QStringLiteral("upstreamsCard"));
    auto *heading = BackOfficeUi::heading(tr("In the order live sales try them"), card);
    auto *hint = BackOfficeUi::hint(
        tr("Live sales go to the first enabled upstream, by priority, that sells the sale's service and operator. A "
           "definite failure there (FAILED, or a refusal) moves the sale to the next one with a new reference; an "
           "unknown outcome never does, since the first may have sold it. Kept by the server; a change applies to "
           "the next live sale."),
        card);
    hint->setObjectName(QStringLiteral("upstreamHint"));
    m_liveOnly->setObjectName(QStringLiteral("upstreamsLiveOnly"));
    Look::set(m_liveOnly, "warning");
    m_liveOnly->setWordWrap(true);
    m_liveOnly->setText(tr("Upstreams serve live sales, so only a live admin changes them: this terminal uses a test "
                           "key and lists them only."));
    m_liveOnly->setVisible(!m_live);

    m_table->setObjectName(QStringLiteral("upstreamsTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("Priority"), tr("Name"), tr("Kind"), tr("Sells"), tr("Enabled"), tr("Health"), tr("Webhook path")});
    m_table->verticalHeader()->hide();
    // The kind's words wrap onto two lines, so what it sells has the room: rows are as tall as their text.
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(KindColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(SellsColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(true);
    m_table->setTabKeyNavigation(false); // Tab leaves the list, Ctrl+Tab reaches the back office's tabs
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setMinimumHeight(m_table->fontMetrics().height() * 6);
    m_table->setMaximumHeight(m_table->fontMetrics().height() * 12);

    m_state->setObjectName(QStringLiteral("upstreamState"));
    Look::set(m_state, "strong");
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kind->setObjectName(QStringLiteral("upstreamKindText"));
    Look::set(m_kind, "hint");
    m_kind->setWordWrap(true);
    m_webhook->setObjectName(QStringLiteral("upstreamWebhookUrl"));
    m_webhook->setWordWrap(true);
    m_webhook->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_add->setObjectName(QStringLiteral("addUpstreamButton"));
    BackOfficeUi::makePrimary(m_add);
    m_edit->setObjectName(QStringLiteral("editUpstreamButton"));
    m_check->setObjectName(QStringLiteral("checkUpstreamButton"));
    m_check->setToolTip(tr("Try its credential now and read again what it offers"));
    m_remove->setObjectName(QStringLiteral("removeUpstreamButton"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_check);
    buttons->addStretch(1);
    buttons->addWidget(m_remove);

    m_checkResult->setObjectName(QStringLiteral("upstreamCheckResult"));
    m_checkResult->setWordWrap(true);
    m_checkResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_checkResult->hide();
    QLabel *general = BackOfficeUi::generalError(card);
    general->setObjectName(QStringLiteral("upstreamError"));
    m_errors = std::make_unique<FormErrors>(general);
    m_notice->setObjectName(QStringLiteral("upstreamNotice"));

    auto *cardLayout = new QVBoxLayout(card);
    cardLayout->setContentsMargins(20, 14, 20, 14);
    cardLayout->addWidget(heading);
    cardLayout->addWidget(hint);
    cardLayout->addWidget(m_liveOnly);
    cardLayout->addWidget(m_table);
    cardLayout->addWidget(m_state);
    cardLayout->addWidget(m_kind);
    cardLayout->addWidget(m_webhook);
    cardLayout->addLayout(buttons);
    cardLayout->addWidget(m_checkResult);
    cardLayout->addWidget(general);
    cardLayout->addWidget(m_notice);

    // The page scrolls when kiosk fonts make the two cards taller than the screen.
    auto *content = new QWidget;
    content->setObjectName(QStringLiteral("upstreamsContent"));
    Look::set(content, "page");
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setSpacing(14);
    contentLayout->addWidget(BackOfficeUi::title(tr("Upstreams"), content));
    contentLayout->addWidget(card);
    contentLayout->addWidget(m_statements, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(BackOfficeUi::scrollArea(content, this));

    setTabOrder(m_table, m_add);
    setTabOrder(m_add, m_edit);
    setTabOrder(m_edit, m_check);
    setTabOrder(m_check, m_remove);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &UpstreamsPage::showSelected);
    connect(m_table, &QTableWidget::activated, this, [this] { onEditClicked(); }); // Enter, or a double click
    auto *removeKey = new QShortcut(QKeySequence::Delete, m_table);
    removeKey->setContext(Qt::WidgetShortcut);
    connect(removeKey, &QShortcut::activated, this, &UpstreamsPage::onRemoveClicked);
    connect(m_add, &QPushButton::clicked, this, &UpstreamsPage::onAddClicked);
    connect(m_edit, &QPushButton::clicked, this, &UpstreamsPage::onEditClicked);
    connect(m_check, &QPushButton::clicked, this, &UpstreamsPage::onCheckClicked);
    connect(m_remove, &QPushButton::clicked, this, &UpstreamsPage::onRemoveClicked);
    showSelected();
}

UpstreamsPage::~UpstreamsPage() = default;

void UpstreamsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

QString UpstreamsPage::webhookUrl(const UpstreamInfo &info) const
{
    QUrl url = m_context.api().baseUrl();
    url.setPath(info.webhookPath);
    url.setQuery(QString());
    return url.toString();
}

const UpstreamInfo *UpstreamsPage::selected() const
{
    const int row = m_table->currentRow();
    if (row < 0 || row >= m_upstreams.size() || !m_table->item(row, 0) || !m_table->item(row, 0)->isSelected())
        return nullptr;
    return &m_upstreams.at(row);
}

bool UpstreamsPage::select(const QString &name)
{
    for (int row = 0; row < m_upstreams.size(); ++row) {
        if (m_upstreams.at(row).name == name) {
            m_table->selectRow(row);
            return true;
        }
    }
    return false;
}

void UpstreamsPage::refresh()
{
    if (m_listCall)
        return;
    if (const UpstreamInfo *info = selected(); info && m_wanted.isEmpty())
        m_wanted = info->name;
    m_listCall = UpstreamApi(m_context.api()).list().then(this, [this](const Answer<UpstreamList> &answer) {
        m_listCall = nullptr;
        if (!answer.ok()) {
            m_errors->show(*answer.error);
            return;
        }
        showList(answer.value->items);
    });
}

void UpstreamsPage::showList(const QList<UpstreamInfo> &items)
{
    m_upstreams = items;
    const QString wanted = m_wanted;
    m_wanted.clear();
    {
        const QSignalBlocker block(m_table);
        m_table->clearSelection();
        m_table->setRowCount(int(items.size()));
        for (int row = 0; row < items.size(); ++row) {
            const UpstreamInfo &info = items.at(row);
            const QStringList cells{QString::number(info.priority),
                                    info.name,
                                    kindText(info.kind),
                                    sellsText(info),
                                    info.enabled ? tr("Yes") : tr("No — skipped"),
                                    healthText(info),
                                    info.webhookPath};
            for (int column = 0; column < cells.size(); ++column) {
                auto *item = new QTableWidgetItem(cells.at(column));
                item->setToolTip(cells.at(column));
                m_table->setItem(row, column, item);
            }
            m_table->item(row, PriorityColumn)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!info.lastError.isEmpty())
                m_table->item(row, HealthColumn)->setToolTip(tr("Last error: %1").arg(info.lastError));
            if (!info.enabled)
                m_table->item(row, EnabledColumn)->setForeground(QColor(0xb5, 0x47, 0x08));
            if (info.state == QLatin1String("unreachable"))
                m_table->item(row, HealthColumn)->setForeground(QColor(0xb4, 0x23, 0x18));
        }
    }
    // Half the spec kind's words a line (measured in the table's font, larger in the kiosk).
    const QString kind = kindText(QStringLiteral("spec"));
    const int half = m_table->fontMetrics().horizontalAdvance(kind.left(kind.size() / 2 + 4)) + 24;
    m_table->setColumnWidth(
        KindColumn,
        qMax(half, m_table->fontMetrics().horizontalAdvance(kindText(QStringLiteral("rechargedesk"))) + 24));
    QStringList names;
    for (const UpstreamInfo &info : items)
        names << info.name;
    m_statements->setUpstreams(names, m_live);
    // The one selected before (or just saved) stays selected; else the first.
    if (!items.isEmpty() && !select(wanted))
        m_table->selectRow(0);
    showSelected();
}

void UpstreamsPage::showSelected()
{
    const UpstreamInfo *info = selected();
    if (!info) {
        m_state->setText(m_upstreams.isEmpty()
                             ? tr("No upstream yet: live sales are refused until one is added here.")
                             : tr("Select an upstream to see its state and the address of its webhooks."));
        m_kind->clear();
        m_kind->hide();
        m_webhook->clear();
        m_webhook->hide();
    } else {
        const UpstreamStatus status = UpstreamStatus::from(*info);
        const QString credential = info->credential == QLatin1String("key_pair") ? tr("key %1").arg(info->keyId)
                                                                                 : tr("its dashboard credential");
        m_state->setText(
            tr("%1 at %2 with %3. State: %4").arg(info->name, info->baseUrl, credential, status.description()) +
            (info->enabled ? QString() : QLatin1Char(' ') + tr("Disabled: live sales skip it.")));
        m_kind->setText(info->kind == QLatin1String("spec")
                            ? tr("It promises the spec only: each sale is sent to it once, ever, and never polled. A "
                                 "sale whose answer is lost waits for its webhook, its statement or a person "
                                 "(History → Needs attention).")
                        : info->kind == QLatin1String("rechargedesk")
                            ? tr("A RechargeDesk distributor: a sale whose answer is lost is sent again with the same "
                                 "reference (never sold twice) and its status is asked.")
                            : tr("What it offers is read at the next Check."));
        m_kind->show();
        m_webhook->setText(tr("Give it this address for its webhooks, with its webhook password: %1 (use the "
                              "address by which it reaches this server).")
                               .arg(webhookUrl(*info)));
        m_webhook->show();
        if (m_statements->upstream() != info->name)
            m_statements->setUpstream(info->name);
    }
    updateButtons();
}

void UpstreamsPage::updateButtons()
{
    const bool one = selected() != nullptr;
    // A button about to be disabled gives the keyboard focus to the list (else Qt moves it on to the next button).
    if (m_busy || !one) {
        for (QPushButton *button : {m_add, m_edit, m_check, m_remove}) {
            if (button->hasFocus())
                m_table->setFocus();
        }
    }
    m_add->setEnabled(m_live && !m_busy);
    m_edit->setEnabled(m_live && !m_busy && one);
    m_check->setEnabled(m_live && !m_busy && one);
    m_remove->setEnabled(m_live && !m_busy && one);
}

void UpstreamsPage::showCheckResult(const QString &text, std::optional<bool> ok)
{
    m_checkResult->setText(text);
    Look::set(m_checkResult, !ok ? "" : *ok ? "notice" : "problem");
    m_checkResult->setProperty("ok", ok ? QVariant(*ok) : QVariant());
    m_checkResult->setVisible(!text.isEmpty());
}

void UpstreamsPage::onAddClicked()
{
    if (m_add->isEnabled())
        openDialog(nullptr);
}

void UpstreamsPage::onEditClicked()
{
    if (const UpstreamInfo *info = selected(); info && m_edit->isEnabled())
        openDialog(info);
}

void UpstreamsPage::openDialog(const UpstreamInfo *editing)
{
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    showCheckResult(QString(), std::nullopt);
    auto *dialog = new UpstreamDialog(m_context, editing, nextPriority(m_upstreams), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    const bool adding = editing == nullptr;
    connect(dialog, &UpstreamDialog::saved, this, [this, adding](const UpstreamInfo &info) {
        BackOfficeUi::showNotice(m_notice, (adding ? tr("Added %1 (%2). Press Check to try its credential now.")
                                                   : tr("Saved %1 (%2). Press Check to try its credential now."))
                                               .arg(info.name, kindText(info.kind)));
        m_wanted = info.name;
        refresh();
        emit changed();
    });
    connect(dialog, &QDialog::finished, m_table, [this] { m_table->setFocus(); });
    dialog->open();
}

void UpstreamsPage::onCheckClicked()
{
    const UpstreamInfo *info = selected();
    if (!info || !m_check->isEnabled())
        return;
    m_errors->clear();
    BackOfficeUi::showNotice(m_notice, QString());
    const QString name = info->name;
    showCheckResult(tr("Checking %1…").arg(name), std::nullopt);
    m_busy = true;
    updateButtons();
    UpstreamApi(m_context.api()).check(name).then(this, [this, name](const Answer<UpstreamCheck> &answer) {
        m_busy = false;
        updateButtons();
        if (!answer.ok()) {
            showCheckResult(QString(), std::nullopt);
            m_errors->show(*answer.error);
            return;
        }
        const bool ok = answer.value->ok;
        showCheckResult(tr("%1: %2").arg(name, answer.value->message), ok);
        m_wanted = name;
        refresh(); // the check moved its health and may have read what it offers
    });
}

void UpstreamsPage::onRemoveClicked()
{
    const UpstreamInfo *info = selected();
    if (!info || !m_remove->isEnabled())
        return;
    const QString name = info->name;
    BackOfficeUi::confirm(
        this, tr("Remove the upstream"),
        tr("Remove the upstream %1 (%2)? Its live sales go to the other upstreams, or are refused "
           "when none is left; sales already waiting on it keep being followed.")
            .arg(name, info->baseUrl),
        tr("Remove %1").arg(name), [this, name] {
            m_errors->clear();
            showCheckResult(QString(), std::nullopt);
            m_busy = true;
            updateButtons();
            UpstreamApi(m_context.api()).remove(name).then(this, [this, name](const Answer<UpstreamInfo> &answer) {
                m_busy = false;
                updateButtons();
                if (!answer.ok()) {
                    m_errors->show(*answer.error);
                    return;
                }
                BackOfficeUi::showNotice(m_notice, tr("Removed %1.").arg(name));
                refresh();
                emit changed();
                m_table->setFocus();
            });
        });
}
