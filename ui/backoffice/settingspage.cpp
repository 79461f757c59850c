#include "settingspage.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "backupcard.h"
#include "counterprefs.h"
#include "listenaddress.h"
#include "money.h"
#include "receipts/cashdrawer.h"
#include "saletermscard.h"
#include "serverapi.h"
#include "shopapi.h"
#include "terminalcontext.h"
#include "ui_settingspage.h"
#include "uilanguage.h"
#include "upstreamspage.h"
#include "validators.h"
#include "widgets/digitslineedit.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"
#include "widgets/wrappedcheckbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabBar>
#include <QUrl>
#include <QVBoxLayout>

namespace {

const QString kListenKey = QStringLiteral("server/listen");
const QString kDatabaseKey = QStringLiteral("server/database");
constexpr int kMinIdleLock = 30;           // seconds, as the server accepts
constexpr int kMaxIdleLock = 3600;         // seconds
constexpr int kMinComplaintDeadline = 1;   // hours, as the server accepts (issue 29)
constexpr int kMaxComplaintDeadline = 720; // hours: 30 days

} // namespace

SettingsPage::SettingsPage(TerminalContext &context, QWidget *parent)
    : QWidget(parent), m_context(context), m_ui(std::make_unique<Ui::SettingsPage>())
{
    // Made first: the bar of the sections comes first in the tab order.
    m_sections = new QTabBar(this);
    // The form is the page's content; it scrolls when kiosk fonts make it taller than the page.
    auto *content = new QWidget(this);
    m_ui->setupUi(content);
    Look::set(this, "page"); // and the form's own look "page" on the content
    for (QWidget *card : {m_ui->shopCard, m_ui->terminalCard, m_ui->counterCard})
        BackOfficeUi::makeCard(card);
    m_ui->shopCardLayout->insertWidget(0, BackOfficeUi::heading(tr("Shop"), m_ui->shopCard));
    m_ui->terminalCardLayout->insertWidget(
        0, BackOfficeUi::heading(tr("This terminal: server and language (restart needed)"), m_ui->terminalCard));
    m_ui->counterCardLayout->insertWidget(0, BackOfficeUi::heading(tr("This terminal"), m_ui->counterCard));
    // Issue 28: the check boxes wrap their text (a long sentence would widen the page); tests find the boxes.
    for (const auto &[wrapped, name] :
         {std::pair{m_ui->shiftsEnabled, "shiftsEnabledBox"}, std::pair{m_ui->blindCount, "blindCountBox"},
          std::pair{m_ui->printUpiQr, "printUpiQrBox"}})
        wrapped->checkBox()->setObjectName(QLatin1String(name));
    setTabOrder(m_ui->shopCircle, m_ui->shiftsEnabled->checkBox());
    setTabOrder(m_ui->shiftsEnabled->checkBox(), m_ui->blindCount->checkBox());
    setTabOrder(m_ui->blindCount->checkBox(), m_ui->upiVpa);
    setTabOrder(m_ui->customerDisplay, m_ui->printUpiQr->checkBox());
    setTabOrder(m_ui->printUpiQr->checkBox(), m_ui->saveCounter);
    m_ui->upiLiveOnly->setText(tr("The UPI ID says where customers' money goes, so only an admin signed in with a "
                                  "PIN (or a live admin key) changes it: this terminal shows it only."));
    m_ui->terminalIniHint->setText(m_ui->terminalIniHint->text().arg(QDir::toNativeSeparators(terminalIniPath())));

    // The cards of the right column get the terminal's context by constructor, so they are made here.
    m_terms = new SaleTermsCard(context, content);
    int row = 0;
    for (QWidget *card : std::initializer_list<QWidget *>{m_terms, new BackupCard(context, content)})
        m_ui->rightColumn->insertWidget(row++, card);

    m_shopErrors = std::make_unique<FormErrors>(m_ui->shopError);
    m_terminalErrors = std::make_unique<FormErrors>(m_ui->terminalError);
    m_counterErrors = std::make_unique<FormErrors>(m_ui->counterError);
    const auto addFields = [](FormErrors &errors, std::initializer_list<std::pair<const char *, QLabel *>> fields) {
        for (const auto &[field, label] : fields) {
            label->setObjectName(QStringLiteral("fieldError")); // the test handle of FormErrors (its look: addField)
            errors.addField(QLatin1String(field), label);
        }
    };
    addFields(*m_shopErrors, {{"name", m_ui->nameError},
                              {"address", m_ui->addressError},
                              {"low_balance_threshold_rupees", m_ui->thresholdError},
                              {"idle_lock_seconds", m_ui->idleLockError},
                              {"circle_code", m_ui->circleError},
                              {"shifts_enabled", m_ui->shiftsError},
                              {"blind_count", m_ui->shiftsError},
                              {"upi_vpa", m_ui->upiVpaError},
                              {"upi_payee_name", m_ui->upiPayeeError},
                              {"complaint_deadline_hours", m_ui->complaintDeadlineError}});
    addFields(*m_terminalErrors, {{"listen", m_ui->listenError}, {"database", m_ui->databaseError}});
    addFields(*m_counterErrors, {{"terminal_name", m_ui->terminalNameError}, {"cash_drawer", m_ui->cashDrawerError}});

    m_ui->shopThreshold->setKind(DigitsLineEdit::Kind::Rupees);
    m_ui->idleLock->setRange(kMinIdleLock, kMaxIdleLock);
    m_ui->idleLock->setValue(120);
    m_ui->shopCircle->addItem(tr("Not set"), QString());
    for (const CircleInfo &circle : context.catalog().circles())
        m_ui->shopCircle->addItem(circle.name, circle.code);
    for (const QString &code : UiLanguage::codes())
        m_ui->language->addItem(UiLanguage::nativeName(code), code);

    for (QLineEdit *edit : std::initializer_list<QLineEdit *>{m_ui->shopName, m_ui->shopThreshold, m_ui->upiVpa,
                                                              m_ui->upiPayeeName, m_ui->complaintDeadline})
        connect(edit, &QLineEdit::returnPressed, this, &SettingsPage::onSaveShopClicked);
    m_ui->terminalName->setMaxLength(CounterPrefs::kMaxTerminalNameLength);
    for (QLineEdit *edit : {m_ui->terminalName, m_ui->cashDrawer})
        connect(edit, &QLineEdit::returnPressed, this, &SettingsPage::onSaveCounterClicked);
    connect(m_ui->saveCounter, &QPushButton::clicked, this, &SettingsPage::onSaveCounterClicked);
    connect(m_ui->saveShop, &QPushButton::clicked, this, &SettingsPage::onSaveShopClicked);
    auto *saveShortcut = new QShortcut(QKeySequence::Save, this);
    connect(saveShortcut, &QShortcut::activated, this, &SettingsPage::onSaveShopClicked);
    for (QLineEdit *edit : {m_ui->listenAddress, m_ui->databasePath})
        connect(edit, &QLineEdit::returnPressed, this, &SettingsPage::onSaveTerminalClicked);
    connect(m_ui->saveTerminal, &QPushButton::clicked, this, &SettingsPage::onSaveTerminalClicked);
    connect(m_ui->browseDatabase, &QPushButton::clicked, this, &SettingsPage::onBrowseClicked);

    // Named and set up before the scroll area polishes them (a polished widget keeps its look).
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    // The sections: General (the form above) and Upstreams, switched by a bar that takes no Ctrl+Tab (the back
    // office's tabs keep that).
    m_upstreams = new UpstreamsPage(context, this);
    m_sections->setObjectName(QStringLiteral("settingsSections"));
    m_sections->setDrawBase(false);
    m_sections->setExpanding(false);
    m_sections->addTab(tr("&General"));
    m_sections->addTab(tr("&Upstreams"));
    m_sections->setTabToolTip(0, tr("The shop, this terminal, the sale terms and backups"));
    m_sections->setTabToolTip(1, tr("The upstreams live sales go to, and their statements"));
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(scroll);
    m_stack->addWidget(m_upstreams);
    connect(m_sections, &QTabBar::currentChanged, m_stack, &QStackedWidget::setCurrentIndex);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->setSpacing(4);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(10, 0, 10, 0);
    bar->addWidget(m_sections);
    bar->addStretch(1);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);
}

void SettingsPage::showSection(Section section)
{
    m_sections->setCurrentIndex(section == Section::Upstreams ? 1 : 0);
}

SettingsPage::Section SettingsPage::section() const
{
    return m_sections->currentIndex() == 1 ? Section::Upstreams : Section::General;
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
    loadCounter();
    loadTls();
    if (section() == Section::Upstreams)
        m_upstreams->refresh();
}

void SettingsPage::loadTls()
{
    ServerApi(m_context.api()).tls().then(this, [this](const Answer<ServerTls> &answer) {
        if (!answer.ok()) {
            m_ui->tlsFingerprint->clear();
            return;
        }
        const QString fingerprint = answer.value->fingerprint;
        m_ui->tlsFingerprint->setText(
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
        m_ui->shopName->setText(shop.name);
        m_ui->shopAddress->setPlainText(shop.address);
        m_ui->shopThreshold->setText(QString::number(shop.lowBalanceThreshold / Money::kPaisePerRupee));
        m_ui->idleLock->setValue(shop.idleLockSeconds);
        m_ui->shopCircle->setCurrentIndex(qMax(0, m_ui->shopCircle->findData(shop.circleCode)));
        m_ui->shiftsEnabled->checkBox()->setChecked(shop.shiftsEnabled);
        m_ui->blindCount->checkBox()->setChecked(shop.blindCount);
        m_ui->upiVpa->setText(shop.upiVpa);
        m_ui->upiPayeeName->setText(shop.upiPayeeName);
        m_ui->complaintDeadline->setText(QString::number(shop.complaintDeadlineHours));
        m_loadedUpi = {shop.upiVpa, shop.upiPayeeName};
        const bool live = hasLiveAuthority();
        m_ui->upiVpa->setEnabled(live);
        m_ui->upiPayeeName->setEnabled(live);
        m_ui->upiLiveOnly->setVisible(!live);
    });
}

bool SettingsPage::hasLiveAuthority() const
{
    // The server's rule (AuthContext::hasLiveAuthority): an admin's session, or a live key used without one.
    const SignedInUser &user = m_context.user();
    return user.id != 0 ? user.isAdmin : !m_context.api().isTestMode();
}

void SettingsPage::onSaveShopClicked()
{
    if (!m_ui->saveShop->isEnabled())
        return;
    m_shopErrors->clear();
    BackOfficeUi::showNotice(m_ui->shopNotice, QString());
    if (m_ui->shopName->text().trimmed().isEmpty()) {
        m_shopErrors->showAt(QStringLiteral("name"), tr("Enter the shop's name; it is printed on every receipt."));
        m_ui->shopName->setFocus();
        return;
    }
    bool deadlineOk = false;
    const int deadline = m_ui->complaintDeadline->text().toInt(&deadlineOk);
    if (!deadlineOk || deadline < kMinComplaintDeadline || deadline > kMaxComplaintDeadline) {
        m_shopErrors->showAt(QStringLiteral("complaint_deadline_hours"),
                             tr("Enter the complaint deadline as whole hours from %1 to %2 (%2 hours is 30 days); "
                                "48 is usual.")
                                 .arg(kMinComplaintDeadline)
                                 .arg(kMaxComplaintDeadline));
        m_ui->complaintDeadline->setFocus();
        return;
    }
    QJsonObject body{{QStringLiteral("name"), m_ui->shopName->text().trimmed()},
                     {QStringLiteral("address"), m_ui->shopAddress->toPlainText().trimmed()},
                     {QStringLiteral("idle_lock_seconds"), m_ui->idleLock->value()},
                     {QStringLiteral("circle_code"), m_ui->shopCircle->currentData().toString()},
                     {QStringLiteral("complaint_deadline_hours"), deadline}};
    if (!m_ui->shopThreshold->text().isEmpty())
        body.insert(QStringLiteral("low_balance_threshold_rupees"), m_ui->shopThreshold->text().toLongLong());
    body.insert(QStringLiteral("shifts_enabled"), m_ui->shiftsEnabled->checkBox()->isChecked());
    body.insert(QStringLiteral("blind_count"), m_ui->blindCount->checkBox()->isChecked());
    // The UPI ID and payee name need live authority: sent only by one who has it, and only when changed.
    const QString vpa = m_ui->upiVpa->text().trimmed();
    const QString payee = m_ui->upiPayeeName->text().trimmed();
    if (hasLiveAuthority() && std::pair{vpa, payee} != m_loadedUpi) {
        if (!vpa.isEmpty() && !Validators::isUpiVpa(vpa)) {
            m_shopErrors->showAt(QStringLiteral("upi_vpa"),
                                 tr("\"%1\" is not a UPI ID. Write it as name@handle, as the shop's UPI app shows it, "
                                    "e.g. sharmamobile@okaxis: one @, letters, digits, dots, - or _ before it, the "
                                    "bank's handle after it.")
                                     .arg(vpa));
            m_ui->upiVpa->setFocus();
            return;
        }
        body.insert(QStringLiteral("upi_vpa"), vpa);
        body.insert(QStringLiteral("upi_payee_name"), payee);
    }
    m_ui->saveShop->setEnabled(false);
    ShopApi(m_context.api()).update(body).then(this, [this](const Answer<ShopInfo> &answer) {
        m_ui->saveShop->setEnabled(true);
        if (!answer.ok()) {
            m_shopErrors->show(*answer.error);
            return;
        }
        m_context.applyShop(*answer.value); // name and address for receipts, the circle for Plans
        m_loadedUpi = {answer.value->upiVpa, answer.value->upiPayeeName};
        BackOfficeUi::showNotice(m_ui->shopNotice, tr("Saved. Receipts now show \"%1\".").arg(answer.value->name));
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
    if (!m_ui->listenAddress->hasFocus())
        m_ui->listenAddress->setText(ini.value(kListenKey).toString());
    if (!m_ui->databasePath->hasFocus())
        m_ui->databasePath->setText(ini.value(kDatabaseKey).toString());
    if (!m_ui->language->hasFocus())
        m_ui->language->setCurrentIndex(
            qMax(0, m_ui->language->findData(UiLanguage::normalized(ini.value(UiLanguage::settingKey()).toString()))));
}

void SettingsPage::onSaveTerminalClicked()
{
    m_terminalErrors->clear();
    BackOfficeUi::showNotice(m_ui->terminalNotice, QString());
    const QString listen = m_ui->listenAddress->text().trimmed();
    const QString database = m_ui->databasePath->text().trimmed();
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
    ini.setValue(UiLanguage::settingKey(), m_ui->language->currentData().toString());
    ini.sync();
    if (ini.status() != QSettings::NoError) {
        m_terminalErrors->showAt(QString(), tr("Could not write %1. Check that the folder is writable.")
                                                .arg(QDir::toNativeSeparators(terminalIniPath())));
        return;
    }
    BackOfficeUi::showNotice(m_ui->terminalNotice, tr("Saved. Restart RechargeDesk for these to take effect."));
}

void SettingsPage::onBrowseClicked()
{
    auto *dialog = new QFileDialog(this, tr("Database file"), QFileInfo(terminalIniPath()).absolutePath(),
                                   tr("SQLite databases (*.db *.sqlite);;All files (*)"));
    dialog->setObjectName(QStringLiteral("databaseDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setOption(QFileDialog::DontConfirmOverwrite);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &file) { m_ui->databasePath->setText(file); });
    dialog->open();
}

void SettingsPage::loadCounter()
{
    const CounterPrefs prefs(m_context.settings());
    // Unset, the terminal goes by the computer's name: shown as the hint, so that clearing the field means it.
    const bool named = m_context.settings().contains(QStringLiteral("counter/terminal_name"));
    m_ui->terminalName->setPlaceholderText(prefs.terminalName());
    if (!m_ui->terminalName->hasFocus())
        m_ui->terminalName->setText(named ? prefs.terminalName() : QString());
    if (!m_ui->cashDrawer->hasFocus())
        m_ui->cashDrawer->setText(prefs.cashDrawer());
    QComboBox *display = m_ui->customerDisplay;
    display->clear();
    display->addItem(tr("Off"), -1);
    const QList<QScreen *> screens = QGuiApplication::screens();
    for (int index = 0; index < screens.size(); ++index) {
        const QScreen *screen = screens.at(index);
        display->addItem(tr("Screen %1: %2 (%3×%4)")
                             .arg(index + 1)
                             .arg(screen->name())
                             .arg(screen->size().width())
                             .arg(screen->size().height()),
                         index);
    }
    const int chosen = prefs.customerDisplayScreen();
    if (chosen >= screens.size()) // kept for when that screen is connected again
        display->addItem(tr("Screen %1 (not connected now)").arg(chosen + 1), chosen);
    display->setCurrentIndex(qMax(0, display->findData(chosen)));
    m_ui->printUpiQr->checkBox()->setChecked(prefs.printUpiQr());
}

void SettingsPage::onSaveCounterClicked()
{
    m_counterErrors->clear();
    BackOfficeUi::showNotice(m_ui->counterNotice, QString());
    const QString name = m_ui->terminalName->text().trimmed();
    const QString drawer = m_ui->cashDrawer->text().trimmed();
    if (!std::all_of(name.cbegin(), name.cend(), [](QChar c) { return c.isPrint(); }))
        m_counterErrors->showAt(QStringLiteral("terminal_name"),
                                tr("Use letters, digits and spaces for the terminal's name, e.g. Counter 1."),
                                m_ui->terminalName);
    const QString drawerProblem = CashDrawer::checkTarget(drawer);
    if (!drawerProblem.isEmpty())
        m_counterErrors->showAt(QStringLiteral("cash_drawer"), drawerProblem, m_ui->cashDrawer);
    if (QWidget *problem = m_counterErrors->firstProblem()) {
        problem->setFocus();
        return;
    }
    CounterPrefs prefs(m_context.settings());
    prefs.setTerminalName(name);
    prefs.setCashDrawer(drawer);
    prefs.setCustomerDisplayScreen(m_ui->customerDisplay->currentData().toInt());
    prefs.setPrintUpiQr(m_ui->printUpiQr->checkBox()->isChecked());
    m_context.settings().sync();
    if (m_context.settings().status() != QSettings::NoError) {
        m_counterErrors->showAt(QString(), tr("Could not write %1. Check that the folder is writable.")
                                               .arg(QDir::toNativeSeparators(m_context.settings().fileName())));
        return;
    }
    BackOfficeUi::showNotice(m_ui->counterNotice,
                             tr("Saved. Shifts opened here are on \"%1\"; a change of the customer display shows at "
                                "the next start.")
                                 .arg(prefs.terminalName()));
    loadCounter();
}
