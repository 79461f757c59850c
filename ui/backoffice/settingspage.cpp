#include "settingspage.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "backupcard.h"
#include "listenaddress.h"
#include "money.h"
#include "saletermscard.h"
#include "serverapi.h"
#include "shopapi.h"
#include "terminalcontext.h"
#include "uilanguage.h"
#include "upstreamcard.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

namespace {

using BackOfficeUi::card;

const QString kListenKey = QStringLiteral("server/listen");
const QString kDatabaseKey = QStringLiteral("server/database");
constexpr int kMinIdleLock = 30;   // seconds, as the server accepts
constexpr int kMaxIdleLock = 3600; // seconds

} // namespace

SettingsPage::SettingsPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_terms(new SaleTermsCard(context, this)), m_name(new QLineEdit(this)),
      m_address(new QPlainTextEdit(this)), m_threshold(new DigitsLineEdit(DigitsLineEdit::Kind::Rupees, 7, this)),
      m_idleLock(new QSpinBox(this)), m_circle(new QComboBox(this)),
      m_saveShop(new QPushButton(tr("&Save shop settings"), this)), m_shopNotice(BackOfficeUi::notice(this)),
      m_listen(new QLineEdit(this)), m_database(new QLineEdit(this)), m_language(new QComboBox(this)),
      m_saveTerminal(new QPushButton(tr("Save &terminal settings"), this)),
      m_terminalNotice(BackOfficeUi::notice(this)), m_upstream(new UpstreamCard(context, this))
{
    setObjectName(QStringLiteral("page"));
    QLabel *shopGeneral = BackOfficeUi::generalError(this);
    shopGeneral->setObjectName(QStringLiteral("shopError"));
    QLabel *terminalGeneral = BackOfficeUi::generalError(this);
    terminalGeneral->setObjectName(QStringLiteral("terminalError"));
    m_shopErrors = std::make_unique<FormErrors>(shopGeneral);
    m_terminalErrors = std::make_unique<FormErrors>(terminalGeneral);

    // Shop (server)
    m_name->setObjectName(QStringLiteral("shopName"));
    m_name->setMaxLength(80);
    m_address->setObjectName(QStringLiteral("shopAddress"));
    m_address->setTabChangesFocus(true);
    m_address->setFixedHeight(80);
    m_address->setPlaceholderText(tr("Printed under the name on every receipt"));
    m_threshold->setObjectName(QStringLiteral("shopThreshold"));
    m_idleLock->setObjectName(QStringLiteral("idleLock"));
    m_idleLock->setRange(kMinIdleLock, kMaxIdleLock);
    m_idleLock->setSuffix(tr(" seconds"));
    m_idleLock->setValue(120);
    m_circle->setObjectName(QStringLiteral("shopCircle"));
    m_circle->addItem(tr("Not set"), QString());
    for (const CircleInfo &circle : context.catalog().circles())
        m_circle->addItem(circle.name, circle.code);
    m_circle->setToolTip(tr("The Plans screen opens on this circle"));
    m_saveShop->setObjectName(QStringLiteral("saveShop"));
    BackOfficeUi::makePrimary(m_saveShop);
    m_shopNotice->setObjectName(QStringLiteral("shopNotice"));
    const QList<std::pair<QString, QLabel *>> shopFields{
        {QStringLiteral("name"), FormErrors::makeLabel(this)},
        {QStringLiteral("address"), FormErrors::makeLabel(this)},
        {QStringLiteral("low_balance_threshold_rupees"), FormErrors::makeLabel(this)},
        {QStringLiteral("idle_lock_seconds"), FormErrors::makeLabel(this)},
        {QStringLiteral("circle_code"), FormErrors::makeLabel(this)}};
    for (const auto &[field, label] : shopFields)
        m_shopErrors->addField(field, label);

    auto *shopForm = new QFormLayout;
    shopForm->setVerticalSpacing(4);
    shopForm->addRow(tr("Shop name"), m_name);
    shopForm->addRow(QString(), shopFields.at(0).second);
    shopForm->addRow(tr("Address"), m_address);
    shopForm->addRow(QString(), shopFields.at(1).second);
    shopForm->addRow(tr("Low balance below (₹)"), m_threshold);
    shopForm->addRow(QString(), shopFields.at(2).second);
    shopForm->addRow(tr("Lock when idle after"), m_idleLock);
    shopForm->addRow(QString(), shopFields.at(3).second);
    shopForm->addRow(tr("Shop's circle"), m_circle);
    shopForm->addRow(QString(), shopFields.at(4).second);
    QWidget *shopCard = card(this);
    auto *shopLayout = new QVBoxLayout(shopCard);
    shopLayout->setContentsMargins(20, 14, 20, 14);
    shopLayout->addWidget(BackOfficeUi::heading(tr("Shop"), shopCard));
    shopLayout->addWidget(
        BackOfficeUi::hint(tr("Kept by the server; every terminal of the shop uses them."), shopCard));
    shopLayout->addLayout(shopForm);
    shopLayout->addWidget(m_saveShop);
    shopLayout->addWidget(shopGeneral);
    shopLayout->addWidget(m_shopNotice);
    m_tlsFingerprint = BackOfficeUi::hint(QString(), shopCard);
    m_tlsFingerprint->setObjectName(QStringLiteral("tlsFingerprint"));
    m_tlsFingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    shopLayout->addWidget(m_tlsFingerprint);

    // Terminal (local, restart needed)
    m_listen->setObjectName(QStringLiteral("listenAddress"));
    m_listen->setPlaceholderText(tr("127.0.0.1:0 (this computer only, any free port)"));
    m_database->setObjectName(QStringLiteral("databasePath"));
    m_database->setPlaceholderText(tr("Default: rechargedesk.db in the data folder"));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    browse->setObjectName(QStringLiteral("browseDatabase"));
    m_language->setObjectName(QStringLiteral("language"));
    for (const QString &code : UiLanguage::codes())
        m_language->addItem(UiLanguage::nativeName(code), code);
    m_saveTerminal->setObjectName(QStringLiteral("saveTerminal"));
    m_terminalNotice->setObjectName(QStringLiteral("terminalNotice"));
    QLabel *listenError = FormErrors::makeLabel(this);
    QLabel *databaseError = FormErrors::makeLabel(this);
    m_terminalErrors->addField(QStringLiteral("listen"), listenError);
    m_terminalErrors->addField(QStringLiteral("database"), databaseError);
    auto *databaseRow = new QHBoxLayout;
    databaseRow->addWidget(m_database, 1);
    databaseRow->addWidget(browse);
    auto *terminalForm = new QFormLayout;
    terminalForm->setVerticalSpacing(4);
    terminalForm->addRow(tr("Server listens on"), m_listen);
    terminalForm->addRow(QString(), listenError);
    terminalForm->addRow(tr("Database"), databaseRow);
    terminalForm->addRow(QString(), databaseError);
    terminalForm->addRow(tr("Language"), m_language);
    QWidget *terminalCard = card(this);
    auto *terminalLayout = new QVBoxLayout(terminalCard);
    terminalLayout->setContentsMargins(20, 14, 20, 14);
    terminalLayout->addWidget(BackOfficeUi::heading(tr("This terminal (restart needed)"), terminalCard));
    QLabel *iniHint = BackOfficeUi::hint(
        tr("Stored in %1 and used the next time RechargeDesk starts. Use 0.0.0.0:8080 to let other terminals of "
           "the shop connect; a database can be a file or a postgres:// URL. The language changes this "
           "terminal's screens and receipts; messages from the server stay in English.")
            .arg(QDir::toNativeSeparators(terminalIniPath())),
        terminalCard);
    iniHint->setObjectName(QStringLiteral("terminalIniHint"));
    terminalLayout->addWidget(iniHint);
    terminalLayout->addLayout(terminalForm);
    terminalLayout->addWidget(m_saveTerminal);
    terminalLayout->addWidget(terminalGeneral);
    terminalLayout->addWidget(m_terminalNotice);

    auto *left = new QVBoxLayout;
    left->setSpacing(14);
    left->addWidget(shopCard);
    left->addWidget(terminalCard);
    left->addStretch();
    auto *columns = new QHBoxLayout;
    columns->setSpacing(16);
    columns->addLayout(left, 3);
    auto *right = new QVBoxLayout;
    right->setSpacing(14);
    right->addWidget(m_terms);
    right->addWidget(m_upstream);
    right->addWidget(new BackupCard(context, this));
    right->addStretch();
    columns->addLayout(right, 2);
    auto *content = new QWidget(this);
    content->setObjectName(QStringLiteral("page"));
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(BackOfficeUi::title(tr("Settings"), content));
    contentLayout->addLayout(columns, 1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    setTabOrder(m_name, m_address);
    setTabOrder(m_address, m_threshold);
    setTabOrder(m_threshold, m_idleLock);
    setTabOrder(m_idleLock, m_circle);
    setTabOrder(m_circle, m_saveShop);
    setTabOrder(m_saveShop, m_listen);
    setTabOrder(m_listen, m_database);
    setTabOrder(m_database, browse);
    setTabOrder(browse, m_language);
    setTabOrder(m_language, m_saveTerminal);

    for (QLineEdit *edit : {m_name, m_threshold})
        connect(edit, &QLineEdit::returnPressed, this, &SettingsPage::onSaveShopClicked);
    connect(m_saveShop, &QPushButton::clicked, this, &SettingsPage::onSaveShopClicked);
    auto *saveShortcut = new QShortcut(QKeySequence::Save, this);
    connect(saveShortcut, &QShortcut::activated, this, &SettingsPage::onSaveShopClicked);
    for (QLineEdit *edit : {m_listen, m_database})
        connect(edit, &QLineEdit::returnPressed, this, &SettingsPage::onSaveTerminalClicked);
    connect(m_saveTerminal, &QPushButton::clicked, this, &SettingsPage::onSaveTerminalClicked);
    connect(browse, &QPushButton::clicked, this, &SettingsPage::onBrowseClicked);
}

SettingsPage::~SettingsPage() = default;

QString SettingsPage::terminalIniPath() const
{
    return QFileInfo(m_context.settings().fileName()).absoluteDir().filePath(QStringLiteral("terminal.ini"));
}

void SettingsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
}

void SettingsPage::refresh()
{
    loadShop();
    loadTerminal();
    loadTls();
    m_upstream->refresh();
}

void SettingsPage::loadTls()
{
    ServerApi(m_context.api()).tls().then(this, [this](const Answer<ServerTls> &answer) {
        if (!answer.ok()) {
            m_tlsFingerprint->clear();
            return;
        }
        const QString fingerprint = answer.value->fingerprint;
        m_tlsFingerprint->setText(
            answer.value->tls
                ? tr("Connections to the server are encrypted (TLS). Certificate SHA-256 fingerprint, which a "
                     "terminal asks to confirm on first contact:\n%1")
                      .arg(fingerprint)
                : tr("Connections to the server are not encrypted: start it with serve --tls so other terminals "
                     "connect with https://."));
    });
}

void SettingsPage::loadShop()
{
    ShopApi(m_context.api()).get().then(this, [this](const Answer<ShopInfo> &answer) {
        if (!answer.ok()) {
            m_shopErrors->show(*answer.error);
            return;
        }
        const ShopInfo &shop = *answer.value;
        m_terms->showShop(shop);
        m_name->setText(shop.name);
        m_address->setPlainText(shop.address);
        m_threshold->setText(QString::number(shop.lowBalanceThreshold / Money::kPaisePerRupee));
        m_idleLock->setValue(shop.idleLockSeconds);
        m_circle->setCurrentIndex(qMax(0, m_circle->findData(shop.circleCode)));
    });
}

void SettingsPage::onSaveShopClicked()
{
    if (!m_saveShop->isEnabled())
        return;
    m_shopErrors->clear();
    BackOfficeUi::showNotice(m_shopNotice, QString());
    if (m_name->text().trimmed().isEmpty()) {
        m_shopErrors->showAt(QStringLiteral("name"), tr("Enter the shop's name; it is printed on every receipt."));
        m_name->setFocus();
        return;
    }
    QJsonObject body{{QStringLiteral("name"), m_name->text().trimmed()},
                     {QStringLiteral("address"), m_address->toPlainText().trimmed()},
                     {QStringLiteral("idle_lock_seconds"), m_idleLock->value()},
                     {QStringLiteral("circle_code"), m_circle->currentData().toString()}};
    if (!m_threshold->text().isEmpty())
        body.insert(QStringLiteral("low_balance_threshold_rupees"), m_threshold->text().toLongLong());
    m_saveShop->setEnabled(false);
    ShopApi(m_context.api()).update(body).then(this, [this](const Answer<ShopInfo> &answer) {
        m_saveShop->setEnabled(true);
        if (!answer.ok()) {
            m_shopErrors->show(*answer.error);
            return;
        }
        m_context.applyShop(*answer.value); // name and address for receipts, the circle for Plans
        BackOfficeUi::showNotice(m_shopNotice, tr("Saved. Receipts now show \"%1\".").arg(answer.value->name));
        emit m_context.salesChanged(); // the status bar re-reads the low-balance threshold
    });
}

QString SettingsPage::checkListen(const QString &listen)
{
    if (listen.isEmpty())
        return {};
    if (!ListenAddress::parse(listen))
        return tr("Write the address and port as ADDR:PORT, e.g. 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080.");
    return {};
}

QString SettingsPage::checkDatabase(const QString &database)
{
    if (database.isEmpty())
        return {};
    if (database.contains(QLatin1String("://"))) {
        const QUrl url(database, QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        if (!url.isValid() || (scheme != QLatin1String("postgres") && scheme != QLatin1String("postgresql")) ||
            url.host().isEmpty())
            return tr("A database URL must look like postgres://user:password@host:5432/rechargedesk.");
        return {};
    }
    if (QFileInfo(database).isRelative())
        return tr("Give the full path of the database file, e.g. /var/lib/rechargedesk/rechargedesk.db.");
    if (QFileInfo(database).isDir())
        return tr("That is a folder; give the path of the database file inside it.");
    return {};
}

void SettingsPage::loadTerminal()
{
    QSettings ini(terminalIniPath(), QSettings::IniFormat);
    if (!m_listen->hasFocus())
        m_listen->setText(ini.value(kListenKey).toString());
    if (!m_database->hasFocus())
        m_database->setText(ini.value(kDatabaseKey).toString());
    if (!m_language->hasFocus())
        m_language->setCurrentIndex(
            qMax(0, m_language->findData(UiLanguage::normalized(ini.value(UiLanguage::settingKey()).toString()))));
}

void SettingsPage::onSaveTerminalClicked()
{
    m_terminalErrors->clear();
    BackOfficeUi::showNotice(m_terminalNotice, QString());
    const QString listen = m_listen->text().trimmed();
    const QString database = m_database->text().trimmed();
    const QString listenError = checkListen(listen);
    const QString databaseError = checkDatabase(database);
    if (!listenError.isEmpty())
        m_terminalErrors->showAt(QStringLiteral("listen"), listenError);
    if (!databaseError.isEmpty())
        m_terminalErrors->showAt(QStringLiteral("database"), databaseError);
    if (!listenError.isEmpty() || !databaseError.isEmpty())
        return;
    QSettings ini(terminalIniPath(), QSettings::IniFormat);
    if (listen.isEmpty())
        ini.remove(kListenKey);
    else
        ini.setValue(kListenKey, listen);
    if (database.isEmpty())
        ini.remove(kDatabaseKey);
    else
        ini.setValue(kDatabaseKey, database);
    ini.setValue(UiLanguage::settingKey(), m_language->currentData().toString());
    ini.sync();
    if (ini.status() != QSettings::NoError) {
        m_terminalErrors->showAt(QString(), tr("Could not write %1. Check that the folder is writable.")
                                                .arg(QDir::toNativeSeparators(terminalIniPath())));
        return;
    }
    BackOfficeUi::showNotice(m_terminalNotice, tr("Saved. Restart RechargeDesk for these to take effect."));
}

void SettingsPage::onBrowseClicked()
{
    auto *dialog = new QFileDialog(this, tr("Database file"), QFileInfo(terminalIniPath()).absolutePath(),
                                   tr("SQLite databases (*.db *.sqlite);;All files (*)"));
    dialog->setObjectName(QStringLiteral("databaseDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setOption(QFileDialog::DontConfirmOverwrite);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) { m_database->setText(file); });
    dialog->open();
}
