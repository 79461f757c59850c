#include "upstreamdialog.h"

#include "apiclient.h"
#include "backofficeui.h"
#include "operatorcatalog.h"
#include "terminalcontext.h"
#include "upstreamapi.h"
#include "widgets/formerrors.h"
#include "widgets/look.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QStringDecoder>
#include <QVBoxLayout>
#include <QWindow>

namespace {

/// What the server takes as a name (upstream-contract.md, "Several upstreams").
const QRegularExpression &namePattern()
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9_-]{1,32}$"));
    return pattern;
}

constexpr int kMaxCredential = 2048; // characters, as the server takes
constexpr int kMaxPriority = 1000;

QLineEdit *secretEdit(const char *name, QWidget *parent)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(QLatin1String(name));
    edit->setEchoMode(QLineEdit::Password);
    edit->setMaxLength(256);
    return edit;
}

} // namespace

const QStringList &UpstreamDialog::serviceCodes()
{
    static const QStringList codes{QStringLiteral("mobile"), QStringLiteral("dth"), QStringLiteral("voucher"),
                                   QStringLiteral("aadhaar"), QStringLiteral("plans")};
    return codes;
}

QString UpstreamDialog::serviceName(const QString &code)
{
    if (code == QLatin1String("mobile"))
        return tr("Mobile");
    if (code == QLatin1String("dth"))
        return tr("DTH");
    if (code == QLatin1String("voucher"))
        return tr("Vouchers");
    if (code == QLatin1String("aadhaar"))
        return tr("Aadhaar");
    if (code == QLatin1String("plans"))
        return tr("Plans");
    return code;
}

UpstreamDialog::UpstreamDialog(TerminalContext &context, const UpstreamInfo *editing, int suggestedPriority,
                               QWidget *parent)
    : QDialog(parent), m_context(context), m_editing(editing != nullptr), m_name(new QLineEdit),
      m_baseUrl(new QLineEdit), m_opaque(new QRadioButton(tr("An aggregator's dashboard &credential"))),
      m_keyPair(new QRadioButton(tr("A RechargeDesk distributor's &key id and secret"))),
      m_credential(secretEdit("upstreamCredential", nullptr)), m_fromFile(new QPushButton(tr("From &file…"))),
      m_keyId(new QLineEdit), m_keySecret(secretEdit("upstreamKeySecret", nullptr)),
      m_webhookPassword(secretEdit("upstreamWebhookPassword", nullptr)),
      m_webhookSecret(secretEdit("upstreamWebhookSecret", nullptr)), m_priority(new QSpinBox),
      m_enabled(new QCheckBox(tr("&Enabled: live sales may go to it"))), m_content(new QWidget)
{
    setObjectName(QStringLiteral("upstreamDialog"));
    setWindowTitle(m_editing ? tr("Edit the upstream %1").arg(editing->name) : tr("Add an upstream"));

    auto *intro = new QLabel(
        m_editing
            ? tr("The server never shows a secret back: type the credential (or key secret), the webhook password "
                 "and, when it is used, the signing secret again to save. A change applies to the next live sale.")
            : tr("Live sales try the enabled upstreams by priority, lowest first. A definite failure moves a "
                 "sale to the next one; an unknown outcome never does."),
        m_content);
    intro->setObjectName(QStringLiteral("upstreamDialogHint"));
    Look::set(intro, "hint");
    intro->setWordWrap(true);

    m_name->setObjectName(QStringLiteral("upstreamName"));
    m_name->setMaxLength(32);
    m_name->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[a-z0-9_-]{0,32}")), this));
    m_name->setPlaceholderText(tr("e.g. payfast (lower-case letters, digits, _ or -)"));
    m_baseUrl->setObjectName(QStringLiteral("upstreamBaseUrl"));
    m_baseUrl->setMaxLength(500);
    m_baseUrl->setPlaceholderText(tr("https://aggregator.example.in/api/v1"));
    m_opaque->setObjectName(QStringLiteral("upstreamOpaque"));
    m_keyPair->setObjectName(QStringLiteral("upstreamKeyPair"));
    auto *kinds = new QButtonGroup(this);
    kinds->addButton(m_opaque);
    kinds->addButton(m_keyPair);
    m_credential->setMaxLength(kMaxCredential);
    m_credential->setPlaceholderText(tr("Paste it from the aggregator's dashboard, or load it from a file"));
    m_fromFile->setObjectName(QStringLiteral("credentialFromFile"));
    m_fromFile->setAutoDefault(false);
    m_keyId->setObjectName(QStringLiteral("upstreamKeyId"));
    m_keyId->setMaxLength(128);
    m_keyId->setPlaceholderText(tr("The key id the distributor gave this shop"));
    m_keySecret->setPlaceholderText(tr("Typed again on every save; never shown back"));
    m_webhookPassword->setPlaceholderText(tr("The password its webhooks carry (webhook_password)"));
    m_webhookSecret->setPlaceholderText(tr("Optional: its webhook signing secret (whsec_…)"));
    m_priority->setObjectName(QStringLiteral("upstreamPriority"));
    m_priority->setRange(0, kMaxPriority);
    m_priority->setValue(qBound(0, suggestedPriority, kMaxPriority));
    m_enabled->setObjectName(QStringLiteral("upstreamEnabled"));
    m_enabled->setChecked(true);

    QLabel *general = BackOfficeUi::generalError(this);
    general->setObjectName(QStringLiteral("upstreamDialogError"));
    m_errors = std::make_unique<FormErrors>(general);
    const auto errorLabel = [this](const char *field) {
        QLabel *label = FormErrors::makeLabel(m_content);
        label->setObjectName(QStringLiteral("upstreamError_%1").arg(QLatin1String(field)));
        m_errors->addField(QLatin1String(field), label);
        return label;
    };

    // The credential: one field and From file…, or the key id and secret.
    auto *credentialRow = new QWidget(m_content);
    auto *credentialBox = new QHBoxLayout(credentialRow);
    credentialBox->setContentsMargins(0, 0, 0, 0);
    credentialBox->addWidget(m_credential, 1);
    credentialBox->addWidget(m_fromFile);

    auto *services = new QWidget(m_content);
    auto *servicesBox = new QHBoxLayout(services);
    servicesBox->setContentsMargins(0, 0, 0, 0);
    for (const QString &code : serviceCodes()) {
        auto *box = new QCheckBox(serviceName(code), services);
        box->setObjectName(QStringLiteral("service_") + code);
        servicesBox->addWidget(box);
        m_services.insert(code, box);
    }
    servicesBox->addStretch(1);

    auto *operators = new QWidget(m_content);
    auto *operatorsGrid = new QGridLayout(operators);
    operatorsGrid->setContentsMargins(0, 0, 0, 0);
    operatorsGrid->setHorizontalSpacing(16);
    operatorsGrid->setVerticalSpacing(4);
    constexpr int kColumns = 4;
    int index = 0;
    for (const ProductKind kind : {ProductKind::Mobile, ProductKind::Dth, ProductKind::Voucher}) {
        for (const OperatorInfo &info : context.catalog().operators(kind)) {
            auto *box = new QCheckBox(info.name, operators);
            box->setObjectName(QStringLiteral("operator_") + info.code);
            box->setToolTip(tr("Operator code %1").arg(info.code));
            operatorsGrid->addWidget(box, index / kColumns, index % kColumns);
            m_operators.append({info.code, box});
            ++index;
        }
    }
    operatorsGrid->setColumnStretch(kColumns, 1);

    auto *form = m_form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setVerticalSpacing(4);
    const auto label = [this](const QString &text, QWidget *buddy) {
        auto *l = new QLabel(text, m_content);
        l->setBuddy(buddy);
        return l;
    };
    form->addRow(label(tr("&Name"), m_name), m_name);
    form->addRow(QString(), errorLabel("name"));
    form->addRow(label(tr("Base &URL"), m_baseUrl), m_baseUrl);
    form->addRow(QString(), errorLabel("base_url"));
    form->addRow(new QLabel(tr("It gives"), m_content), m_opaque);
    form->addRow(QString(), m_keyPair);
    form->addRow(label(tr("C&redential"), m_credential), credentialRow);
    m_credentialRows = {credentialRow, errorLabel("credential")};
    form->addRow(QString(), m_credentialRows.last());
    form->addRow(label(tr("Key &id"), m_keyId), m_keyId);
    m_keyRows = {m_keyId, errorLabel("key_id"), m_keySecret};
    form->addRow(QString(), m_keyRows.at(1));
    form->addRow(label(tr("Key &secret"), m_keySecret), m_keySecret);
    m_keyRows.append(errorLabel("key_secret"));
    form->addRow(QString(), m_keyRows.last());
    form->addRow(label(tr("&Webhook password"), m_webhookPassword), m_webhookPassword);
    form->addRow(QString(), errorLabel("webhook_password"));
    form->addRow(label(tr("Webhook signing secre&t"), m_webhookSecret), m_webhookSecret);
    form->addRow(QString(), errorLabel("webhook_secret"));
    // The priority with what it means beside it; one hint under the services and operators for both.
    auto *priorityRow = new QWidget(m_content);
    auto *priorityBox = new QHBoxLayout(priorityRow);
    priorityBox->setContentsMargins(0, 0, 0, 0);
    m_priority->setMinimumWidth(m_priority->fontMetrics().horizontalAdvance(QStringLiteral("00000")) + 40);
    priorityBox->addWidget(m_priority);
    priorityBox->addWidget(BackOfficeUi::hint(tr("Lowest is tried first (0 to 1000)."), priorityRow), 1);
    form->addRow(label(tr("&Priority"), m_priority), priorityRow);
    form->addRow(QString(), errorLabel("priority"));
    form->addRow(new QLabel(tr("Sells"), m_content), services);
    form->addRow(QString(), errorLabel("services"));
    form->addRow(new QLabel(tr("Operators"), m_content), operators);
    form->addRow(QString(),
                 BackOfficeUi::hint(tr("None ticked: it sells every service, or every operator."), m_content));
    form->addRow(QString(), errorLabel("operators"));
    form->addRow(QString(), m_enabled);

    auto *contentLayout = new QVBoxLayout(m_content);
    contentLayout->setContentsMargins(0, 0, 8, 0);
    contentLayout->addWidget(intro);
    contentLayout->addLayout(form);
    contentLayout->addStretch(1);

    auto *buttons = new QDialogButtonBox(this);
    m_save = buttons->addButton(tr("Sa&ve upstream"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("saveUpstream"));
    m_save->setDefault(true);
    Look::set(m_save, "primary");
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("cancelUpstream"));

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(10);
    layout->addWidget(BackOfficeUi::scrollArea(m_content, this), 1);
    layout->addWidget(general);
    layout->addWidget(buttons);
    setMinimumWidth(820);

    if (m_editing) {
        m_name->setText(editing->name);
        m_name->setReadOnly(true);
        m_name->setFocusPolicy(Qt::NoFocus); // renaming makes another upstream: Add does that
        m_baseUrl->setText(editing->baseUrl);
        (editing->credential == QLatin1String("key_pair") ? m_keyPair : m_opaque)->setChecked(true);
        m_keyId->setText(editing->keyId);
        m_priority->setValue(editing->priority);
        for (const QString &service : editing->services) {
            if (QCheckBox *box = m_services.value(service))
                box->setChecked(true);
        }
        for (const auto &[code, box] : std::as_const(m_operators))
            box->setChecked(editing->operators.contains(code));
        m_enabled->setChecked(editing->enabled);
    } else {
        m_opaque->setChecked(true);
    }

    // Tab follows the form top to bottom; the services and operators in reading order.
    QList<QWidget *> order{m_name,  m_baseUrl,   m_opaque,          m_keyPair,       m_credential, m_fromFile,
                           m_keyId, m_keySecret, m_webhookPassword, m_webhookSecret, m_priority};
    for (const QString &code : serviceCodes())
        order.append(m_services.value(code));
    for (const auto &[code, box] : std::as_const(m_operators))
        order.append(box);
    order << m_enabled << m_save << m_cancel;
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order.at(i - 1), order.at(i));

    connect(m_opaque, &QRadioButton::toggled, this, &UpstreamDialog::showCredentialKind);
    connect(m_fromFile, &QPushButton::clicked, this, &UpstreamDialog::onFromFileClicked);
    connect(m_save, &QPushButton::clicked, this, &UpstreamDialog::onSaveClicked);
    connect(m_cancel, &QPushButton::clicked, this, &UpstreamDialog::reject);
    connect(m_webhookPassword, &QLineEdit::textChanged, this, [this] { m_noPasswordAsked = false; });
    showCredentialKind();
    (m_editing ? m_baseUrl : m_name)->setFocus();
}

UpstreamDialog::~UpstreamDialog() = default;

void UpstreamDialog::showCredentialKind()
{
    const bool opaque = m_opaque->isChecked();
    for (const auto &[rows, shown] : {std::pair{&m_credentialRows, opaque}, std::pair{&m_keyRows, !opaque}}) {
        for (QWidget *widget : std::as_const(*rows)) {
            // A field row with its label; an error under it only ever hidden here (FormErrors shows it).
            if (qobject_cast<QLabel *>(widget)) {
                if (!shown)
                    widget->hide();
            } else {
                m_form->setRowVisible(widget, shown);
            }
        }
    }
}

void UpstreamDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    fitToScreen();
}

void UpstreamDialog::fitToScreen()
{
    // The style sheet (larger kiosk fonts) is applied by now: as tall as the form needs, within the screen.
    const QSize content = m_content->sizeHint();
    const QRect screen = (windowHandle() && windowHandle()->screen()) ? windowHandle()->screen()->availableGeometry()
                                                                      : QRect(0, 0, 1366, 768);
    const int chrome = layout()->totalSizeHint().height() - layout()->itemAt(0)->sizeHint().height();
    const int width = qMin(qMax(this->width(), content.width() + 40), screen.width() - 20);
    const int height = qMin(content.height() + chrome + 8, screen.height() - 40);
    resize(width, qMax(height, this->height()));
}

QString UpstreamDialog::name() const
{
    return m_name->text().trimmed();
}

QJsonObject UpstreamDialog::body() const
{
    QJsonObject body{{QStringLiteral("base_url"), m_baseUrl->text().trimmed()}};
    if (m_opaque->isChecked()) {
        body.insert(QStringLiteral("credential"), m_credential->text().trimmed());
    } else {
        body.insert(QStringLiteral("key_id"), m_keyId->text().trimmed());
        body.insert(QStringLiteral("key_secret"), m_keySecret->text());
    }
    if (!m_webhookPassword->text().isEmpty())
        body.insert(QStringLiteral("webhook_password"), m_webhookPassword->text());
    if (!m_webhookSecret->text().isEmpty())
        body.insert(QStringLiteral("webhook_secret"), m_webhookSecret->text());
    body.insert(QStringLiteral("priority"), m_priority->value());
    QJsonArray services;
    for (const QString &code : serviceCodes()) {
        if (m_services.value(code)->isChecked())
            services.append(code);
    }
    body.insert(QStringLiteral("services"), services);
    QJsonArray operators;
    for (const auto &[code, box] : m_operators) {
        if (box->isChecked())
            operators.append(code);
    }
    body.insert(QStringLiteral("operators"), operators);
    body.insert(QStringLiteral("enabled"), m_enabled->isChecked());
    return body;
}

bool UpstreamDialog::loadCredentialFile(const QString &path)
{
    m_errors->clear();
    QFile file(path);
    const QString where = QDir::toNativeSeparators(path);
    if (file.size() > 4 * kMaxCredential) {
        m_errors->showAt(
            QStringLiteral("credential"),
            tr("%1 is too large for a credential (at most %2 characters).").arg(where).arg(kMaxCredential));
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        m_errors->showAt(QStringLiteral("credential"), tr("Could not read %1: %2").arg(where, file.errorString()));
        return false;
    }
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString credential = QString(utf8(file.readAll())).trimmed();
    if (utf8.hasError() || credential.isEmpty() || credential.size() > kMaxCredential) {
        m_errors->showAt(QStringLiteral("credential"),
                         tr("%1 does not hold a credential: save the API key credential the aggregator's dashboard "
                            "shows in a text file, alone.")
                             .arg(where));
        return false;
    }
    m_opaque->setChecked(true);
    m_credential->setText(credential);
    m_credential->setFocus();
    return true;
}

void UpstreamDialog::onFromFileClicked()
{
    auto *dialog = new QFileDialog(this, tr("The aggregator's credential"), QDir::homePath(),
                                   tr("Text files (*.txt *.key);;All files (*)"));
    dialog->setObjectName(QStringLiteral("credentialFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) { loadCredentialFile(path); });
    dialog->open();
}

void UpstreamDialog::reject()
{
    if (m_busy)
        return; // the answer arrives here before the dialog goes
    QDialog::reject();
}

void UpstreamDialog::setBusy(bool busy)
{
    m_busy = busy;
    m_save->setEnabled(!busy);
    m_cancel->setEnabled(!busy);
    m_save->setText(busy ? tr("Saving…") : tr("Sa&ve upstream"));
}

void UpstreamDialog::onSaveClicked()
{
    if (m_busy)
        return;
    m_errors->clear();
    if (!namePattern().match(name()).hasMatch())
        m_errors->showAt(QStringLiteral("name"),
                         tr("Give it a name of 1 to 32 lower-case letters, digits, _ or -, e.g. payfast."), m_name);
    // Only emptiness is checked here; the server judges the URL (http/https, ending in /api/v1).
    if (m_baseUrl->text().trimmed().isEmpty())
        m_errors->showAt(QStringLiteral("base_url"), tr("Enter the upstream's base URL, ending in /api/v1."),
                         m_baseUrl);
    if (m_opaque->isChecked()) {
        if (m_credential->text().trimmed().isEmpty())
            m_errors->showAt(
                QStringLiteral("credential"),
                tr("Paste the API key credential the aggregator's dashboard shows, or load it from a file: it "
                   "is never shown back, so it is given again on every save."),
                m_credential);
    } else {
        if (m_keyId->text().trimmed().isEmpty())
            m_errors->showAt(QStringLiteral("key_id"), tr("Enter the key id the distributor gave this shop."), m_keyId);
        if (m_keySecret->text().isEmpty())
            m_errors->showAt(QStringLiteral("key_secret"),
                             tr("Enter the key secret: it is never shown back, so it is typed again on every save."),
                             m_keySecret);
    }
    if (!m_errors->firstProblem() && m_webhookPassword->text().isEmpty() && !m_noPasswordAsked) {
        m_noPasswordAsked = true;
        m_errors->showAt(
            QStringLiteral("webhook_password"),
            tr("Without the webhook password this upstream's webhooks are refused, and a sale whose answer was "
               "lost ends only by its statement or by hand. Type it, or press Save again to save without it."),
            m_webhookPassword);
    }
    if (QWidget *firstProblem = m_errors->firstProblem()) {
        showCredentialKind();
        firstProblem->setFocus();
        return;
    }
    setBusy(true);
    UpstreamApi(m_context.api()).save(name(), body()).then(this, [this](const Answer<UpstreamInfo> &answer) {
        onSaved(answer);
    });
}

void UpstreamDialog::onSaved(const Answer<UpstreamInfo> &answer)
{
    setBusy(false);
    if (!answer.ok()) {
        const ApiError &error = *answer.error;
        m_errors->show(error);
        showCredentialKind();
        if (error.field() == QLatin1String("key_id") || error.field() == QLatin1String("key_secret"))
            m_keyPair->setChecked(true);
        return;
    }
    emit saved(*answer.value);
    accept();
}
