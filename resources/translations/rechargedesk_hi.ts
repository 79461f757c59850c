<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="hi_IN">
<context>
    <name>AddShopDialog</name>
    <message>
        <source>Add a shop</source>
        <translation>दुकान जोड़ें</translation>
    </message>
    <message>
        <source>The shop gets a live key for its RechargeDesk: its secret is shown once, with the lines the shop runs to connect.</source>
        <translation>दुकान को उसके RechargeDesk के लिए एक लाइव कुंजी मिलती है: इसका सीक्रेट सिर्फ़ एक बार दिखता है, साथ में वे कमांड जिन्हें चलाकर दुकान जुड़ती है।</translation>
    </message>
    <message>
        <source>&amp;Add shop</source>
        <translation>दुकान जोड़ें (&amp;A)</translation>
    </message>
    <message>
        <source>As the shop is known, e.g. Gupta Telecom</source>
        <translation>जिस नाम से दुकान जानी जाती है, जैसे Gupta Telecom</translation>
    </message>
    <message>
        <source>10 digits</source>
        <translation>10 अंक</translation>
    </message>
    <message>
        <source>Choose the circle…</source>
        <translation>सर्कल चुनें…</translation>
    </message>
    <message>
        <source>Optional, 15 characters, e.g. 27AAPFU0939F1ZV</source>
        <translation>ज़रूरी नहीं, 15 अक्षर, जैसे 27AAPFU0939F1ZV</translation>
    </message>
    <message>
        <source>Shop &amp;name</source>
        <translation>दुकान का नाम (&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Owner</source>
        <translation>मालिक (&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Mobile</source>
        <translation>मोबाइल (&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Circle</source>
        <translation>सर्कल (&amp;C)</translation>
    </message>
    <message>
        <source>&amp;GSTIN</source>
        <translation>GSTIN (&amp;G)</translation>
    </message>
    <message>
        <source>Type the shop&apos;s name: %1 to %2 characters.</source>
        <translation>दुकान का नाम लिखें: %1 से %2 अक्षर।</translation>
    </message>
    <message>
        <source>Type the name of the person who runs the shop.</source>
        <translation>दुकान चलाने वाले व्यक्ति का नाम लिखें।</translation>
    </message>
    <message>
        <source>Type the owner&apos;s mobile number: 10 digits starting with 6, 7, 8 or 9.</source>
        <translation>मालिक का मोबाइल नंबर लिखें: 6, 7, 8 या 9 से शुरू होने वाले 10 अंक।</translation>
    </message>
    <message>
        <source>Choose the shop&apos;s telecom circle.</source>
        <translation>दुकान का टेलीकॉम सर्कल चुनें।</translation>
    </message>
    <message>
        <source>A GSTIN has 15 characters; this one has %1.</source>
        <translation>GSTIN में 15 अक्षर होते हैं; इसमें %1 हैं।</translation>
    </message>
    <message>
        <source>This is not a valid GSTIN: check the characters (the last one is a check digit).</source>
        <translation>यह सही GSTIN नहीं है: अक्षर जाँचें (आख़िरी अक्षर जाँच के लिए होता है)।</translation>
    </message>
</context>
<context>
    <name>AdminCloseShiftDialog</name>
    <message>
        <source>&amp;Close the shift</source>
        <translation>शिफ़्ट बंद करें (&amp;C)</translation>
    </message>
    <message>
        <source>Close %1&apos;s shift</source>
        <translation>%1 की शिफ़्ट बंद करें</translation>
    </message>
    <message>
        <source>Close %1&apos;s shift on %2</source>
        <translation>%2 पर %1 की शिफ़्ट बंद करें</translation>
    </message>
    <message>
        <source>Count the drawer of this shift: the notes of each kind, then the coins as one amount in rupees. The note tells the clerk and the day-end report why an admin closed it.</source>
        <translation>इस शिफ़्ट का गल्ला गिनें: पहले हर तरह के नोट, फिर सारे सिक्कों की कुल राशि रुपयों में। नीचे लिखा नोट क्लर्क और दिन के अंत की रिपोर्ट को बताता है कि एडमिन ने शिफ़्ट क्यों बंद की।</translation>
    </message>
    <message>
        <source>Expected in the drawer: %1</source>
        <translation>गल्ले में होने चाहिए: %1</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>पता नहीं</translation>
    </message>
    <message>
        <source>₹%1 notes ×</source>
        <translation>₹%1 के नोट ×</translation>
    </message>
    <message>
        <source>Coins, total ₹</source>
        <translation>सिक्के, कुल ₹</translation>
    </message>
    <message>
        <source>required: why you close this shift</source>
        <translation>ज़रूरी: आप यह शिफ़्ट क्यों बंद कर रहे हैं</translation>
    </message>
    <message>
        <source>optional, e.g. why the drawer is short</source>
        <translation>ज़रूरी नहीं, जैसे गल्ले में पैसे कम क्यों हैं</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>नोट</translation>
    </message>
    <message>
        <source>Counted: %1</source>
        <translation>गिने गए: %1</translation>
    </message>
    <message>
        <source> · Difference: %1</source>
        <translation> · अंतर: %1</translation>
    </message>
    <message>
        <source>Type the count first: the notes of each kind (0 for none) and the coins.</source>
        <translation>पहले गिनती लिखें: हर तरह के नोट (न हों तो 0) और सिक्के।</translation>
    </message>
    <message>
        <source>Write why you close %1&apos;s shift: the clerk and the day-end report see it.</source>
        <translation>लिखें कि आप %1 की शिफ़्ट क्यों बंद कर रहे हैं: यह क्लर्क और दिन के अंत की रिपोर्ट में दिखेगा।</translation>
    </message>
    <message>
        <source>Closing…</source>
        <translation>बंद हो रही है…</translation>
    </message>
</context>
<context>
    <name>ApiCall</name>
    <message>
        <source>Cannot reach the server: %1</source>
        <translation>सर्वर से संपर्क नहीं हो पा रहा: %1</translation>
    </message>
    <message>
        <source>The server answered HTTP %1</source>
        <translation>सर्वर ने HTTP %1 जवाब दिया</translation>
    </message>
</context>
<context>
    <name>ApiClient</name>
    <message>
        <source>The shop server&apos;s certificate has not been confirmed on this terminal yet (SHA-256 fingerprint %1).</source>
        <translation>इस टर्मिनल पर दुकान के सर्वर का प्रमाणपत्र अभी पुष्टि नहीं हुआ है (SHA-256 फ़िंगरप्रिंट %1)।</translation>
    </message>
    <message>
        <source>The shop server presented a different certificate than the one confirmed on this terminal; the connection was refused.</source>
        <translation>दुकान के सर्वर ने इस टर्मिनल पर पुष्टि किए गए प्रमाणपत्र से अलग प्रमाणपत्र दिखाया; कनेक्शन मना कर दिया गया।</translation>
    </message>
</context>
<context>
    <name>BackOfficeUi</name>
    <message>
        <source>key %1</source>
        <translation>कुंजी %1</translation>
    </message>
    <message>
        <source>first-run setup</source>
        <translation>पहली बार का सेटअप</translation>
    </message>
    <message>
        <source>RechargeDesk itself</source>
        <translation>ख़ुद RechargeDesk</translation>
    </message>
</context>
<context>
    <name>BackOfficeView</name>
    <message>
        <source>History</source>
        <translation>इतिहास</translation>
    </message>
    <message>
        <source>Day-end</source>
        <translation>दिन का हिसाब</translation>
    </message>
    <message>
        <source>Wallet</source>
        <translation>वॉलेट</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API कुंजियाँ</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>वेबहुक</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>उपयोगकर्ता</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>सेटिंग्स</translation>
    </message>
    <message>
        <source>Press to show them in History: Needs attention.</source>
        <translation>इन्हें इतिहास → ध्यान चाहिए में देखने के लिए दबाएँ।</translation>
    </message>
    <message>
        <source>%1 · show them (Alt+N)</source>
        <translation>%1 · इन्हें दिखाएँ (Alt+N)</translation>
    </message>
    <message>
        <source>Shifts</source>
        <translation>शिफ़्ट</translation>
    </message>
    <message>
        <source>Complaints</source>
        <translation>शिकायतें</translation>
    </message>
    <message>
        <source>Shops</source>
        <translation>दुकानें</translation>
    </message>
</context>
<context>
    <name>BackupCard</name>
    <message>
        <source>Backups</source>
        <translation>बैकअप</translation>
    </message>
    <message>
        <source>The server copies the sales, settings and the key vault into one file every night. Keep a copy off this computer too.</source>
        <translation>सर्वर हर रात बिक्री, सेटिंग्स और की-वॉल्ट को एक फ़ाइल में कॉपी करता है। एक कॉपी इस कंप्यूटर से बाहर भी रखें।</translation>
    </message>
    <message>
        <source>The backup state cannot be read: %1</source>
        <translation>बैकअप की स्थिति पढ़ी नहीं जा सकी: %1</translation>
    </message>
    <message>
        <source>No backup yet.</source>
        <translation>अभी तक कोई बैकअप नहीं।</translation>
    </message>
    <message>
        <source>Last backup: %1 IST, %2 (%3)</source>
        <translation>पिछला बैकअप: %1 IST, %2 (%3)</translation>
    </message>
    <message>
        <source>Next backup: %1 IST into %2, keeping the last %3.</source>
        <translation>अगला बैकअप: %1 IST पर %2 में, आख़िरी %3 रखे जाएँगे।</translation>
    </message>
    <message>
        <source>Nightly backups are off (serve --backup-at).</source>
        <translation>रात के बैकअप बंद हैं (serve --backup-at)।</translation>
    </message>
    <message>
        <source>The last backup failed: %1</source>
        <translation>पिछला बैकअप असफल रहा: %1</translation>
    </message>
    <message>
        <source>No backup is newer than 2 days. Make one now on the server: rechargedesk backup --to FILE (or check the nightly backup&apos;s folder and disk space).</source>
        <translation>कोई भी बैकअप 2 दिन से नया नहीं है। अभी सर्वर पर एक बनाएँ: rechargedesk backup --to FILE (या रात के बैकअप का फ़ोल्डर और डिस्क की जगह जाँचें)।</translation>
    </message>
</context>
<context>
    <name>CashDrawer</name>
    <message>
        <source>Could not open the cash drawer: %1 does not exist. Is the receipt printer on and plugged in? (Settings names the drawer&apos;s printer.)</source>
        <translation>गल्ला नहीं खुल सका: %1 मौजूद नहीं है। क्या रसीद प्रिंटर चालू है और उसका तार लगा है? (गल्ले का प्रिंटर सेटिंग्स में लिखा है।)</translation>
    </message>
    <message>
        <source>Could not open the cash drawer: no permission to write to %1 (the user needs the group lp).</source>
        <translation>गल्ला नहीं खुल सका: %1 में लिखने की अनुमति नहीं है (उपयोगकर्ता का lp ग्रुप में होना ज़रूरी है)।</translation>
    </message>
    <message>
        <source>Could not open the cash drawer: %1: %2</source>
        <translation>गल्ला नहीं खुल सका: %1: %2</translation>
    </message>
    <message>
        <source>Could not open the cash drawer: writing to %1 failed: %2</source>
        <translation>गल्ला नहीं खुल सका: %1 में लिखना असफल रहा: %2</translation>
    </message>
    <message>
        <source>The cash drawer&apos;s printer did not answer within %1 seconds. Is it on, with paper?</source>
        <translation>गल्ले के प्रिंटर ने %1 सेकंड में जवाब नहीं दिया। क्या वह चालू है और उसमें कागज़ है?</translation>
    </message>
    <message>
        <source>Give the printer&apos;s device (e.g. /dev/usb/lp0) or the name of its raw printer queue in CUPS (letters, digits, - _ . only).</source>
        <translation>प्रिंटर का डिवाइस (जैसे /dev/usb/lp0) या CUPS में उसकी raw प्रिंटर कतार का नाम लिखें (सिर्फ़ अक्षर, अंक, - _ .)।</translation>
    </message>
    <message>
        <source>The cash drawer is still busy with the last opening. Try again.</source>
        <translation>गल्ला खोलने का पिछला काम अभी चल रहा है। फिर से कोशिश करें।</translation>
    </message>
    <message>
        <source>Could not open the cash drawer: the program lp could not be run (install the package cups-client).</source>
        <translation>गल्ला नहीं खुल सका: lp प्रोग्राम नहीं चल सका (cups-client पैकेज इंस्टॉल करें)।</translation>
    </message>
    <message>
        <source>Could not open the cash drawer through the printer queue %1: %2</source>
        <translation>प्रिंटर कतार %1 से गल्ला नहीं खुल सका: %2</translation>
    </message>
    <message>
        <source>lp ended with code %1</source>
        <translation>lp कोड %1 के साथ बंद हुआ</translation>
    </message>
</context>
<context>
    <name>CashMoveDialog</name>
    <message>
        <source>Cash in / out</source>
        <translation>नकद जमा / निकासी</translation>
    </message>
    <message>
        <source>Money put into or taken out of the drawer outside a sale, with the reason. It is kept in the shift&apos;s record under your name.</source>
        <translation>बिक्री के अलावा गल्ले में डाले या उससे निकाले गए पैसे, कारण के साथ। यह आपके नाम से शिफ़्ट के रिकॉर्ड में दर्ज होता है।</translation>
    </message>
    <message>
        <source>&amp;Out — take cash from the drawer</source>
        <translation>निकासी — गल्ले से नकद निकालें (&amp;O)</translation>
    </message>
    <message>
        <source>&amp;In — put cash into the drawer</source>
        <translation>जमा — गल्ले में नकद डालें (&amp;I)</translation>
    </message>
    <message>
        <source>What the cash is for</source>
        <translation>नकद किस लिए है</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Amount ₹</source>
        <translation>राशि ₹</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>कारण</translation>
    </message>
    <message>
        <source>Other reason</source>
        <translation>दूसरा कारण</translation>
    </message>
    <message>
        <source>Your PIN</source>
        <translation>आपका PIN</translation>
    </message>
    <message>
        <source>Record cash out (Enter)</source>
        <translation>निकासी दर्ज करें (Enter)</translation>
    </message>
    <message>
        <source>Cancel (Esc)</source>
        <translation>रद्द करें (Esc)</translation>
    </message>
    <message>
        <source>Record cash in (Enter)</source>
        <translation>जमा दर्ज करें (Enter)</translation>
    </message>
    <message>
        <source>Float added</source>
        <translation>छुट्टे के लिए पैसे डाले</translation>
    </message>
    <message>
        <source>Change from the bank</source>
        <translation>बैंक से छुट्टे लाए</translation>
    </message>
    <message>
        <source>Paid a supplier</source>
        <translation>सप्लायर को भुगतान किया</translation>
    </message>
    <message>
        <source>Owner took cash</source>
        <translation>मालिक ने नकद लिया</translation>
    </message>
    <message>
        <source>Bank deposit</source>
        <translation>बैंक में जमा किया</translation>
    </message>
    <message>
        <source>Other…</source>
        <translation>कुछ और…</translation>
    </message>
    <message>
        <source>Type the amount in rupees.</source>
        <translation>राशि रुपयों में लिखें।</translation>
    </message>
    <message>
        <source>At most ₹1,00,000 at a time.</source>
        <translation>एक बार में ज़्यादा से ज़्यादा ₹1,00,000।</translation>
    </message>
    <message>
        <source>Say what the cash is for.</source>
        <translation>बताएँ कि नकद किस लिए है।</translation>
    </message>
    <message>
        <source>Type your PIN to confirm.</source>
        <translation>पुष्टि के लिए अपना PIN डालें।</translation>
    </message>
    <message>
        <source>Recording…</source>
        <translation>दर्ज हो रहा है…</translation>
    </message>
</context>
<context>
    <name>CloseShiftDialog</name>
    <message>
        <source>Close the shift</source>
        <translation>शिफ़्ट बंद करें</translation>
    </message>
    <message>
        <source>Count the drawer: the number of notes of each kind, then the coins as one amount. Enter goes to the next field.</source>
        <translation>गल्ला गिनें: हर तरह के कितने नोट हैं, फिर सारे सिक्कों की कुल राशि। Enter दबाने पर अगला खाना आता है।</translation>
    </message>
    <message>
        <source>optional, e.g. why the drawer is short</source>
        <translation>ज़रूरी नहीं, जैसे गल्ले में पैसे कम क्यों हैं</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>नोट</translation>
    </message>
    <message>
        <source>Close shift (Enter)</source>
        <translation>शिफ़्ट बंद करें (Enter)</translation>
    </message>
    <message>
        <source>Cancel (Esc)</source>
        <translation>रद्द करें (Esc)</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 बजे शुरू हुई</translation>
    </message>
    <message>
        <source>Expected in the drawer: %1</source>
        <translation>गल्ले में होने चाहिए: %1</translation>
    </message>
    <message>
        <source>Blind count: the expected cash and the difference show once the shift is closed.</source>
        <translation>बिना देखे गिनती: गल्ले में कितना होना चाहिए और अंतर, ये शिफ़्ट बंद होने के बाद दिखेंगे।</translation>
    </message>
    <message>
        <source>Counted: %1</source>
        <translation>गिने गए: %1</translation>
    </message>
    <message>
        <source>Difference: %1</source>
        <translation>अंतर: %1</translation>
    </message>
    <message>
        <source>Type the count first: the notes of each kind (0 for none) and the coins.</source>
        <translation>पहले गिनती लिखें: हर तरह के नोट (न हों तो 0) और सिक्के।</translation>
    </message>
    <message>
        <source>Closing…</source>
        <translation>बंद हो रही है…</translation>
    </message>
</context>
<context>
    <name>ComplaintSection</name>
    <message>
        <source>Raise &amp;complaint…</source>
        <translation>शिकायत दर्ज करें… (&amp;C)</translation>
    </message>
    <message>
        <source>Complaint %1 (%2): credited back — the sale was reversed and refunded. %3</source>
        <translation>शिकायत %1 (%2): पैसा वापस — बिक्री उलट दी गई और रिफ़ंड हो गया। %3</translation>
    </message>
    <message>
        <source> Operator reference: %1.</source>
        <translation> ऑपरेटर रेफ़रेंस: %1।</translation>
    </message>
    <message>
        <source>Complaint %1 (%2): rejected — %3.%4</source>
        <translation>शिकायत %1 (%2): नामंज़ूर — %3।%4</translation>
    </message>
    <message>
        <source>with the distributor</source>
        <translation>डिस्ट्रीब्यूटर के पास</translation>
    </message>
    <message>
        <source>open</source>
        <translation>खुली</translation>
    </message>
    <message>
        <source>the shop&apos;s key</source>
        <translation>दुकान की कुंजी</translation>
    </message>
    <message>
        <source>Complaint %1 (%2): %3, raised %4 by %5.</source>
        <translation>शिकायत %1 (%2): %3, %4 को %5 ने दर्ज की।</translation>
    </message>
    <message>
        <source>PAST DEADLINE</source>
        <translation>समय-सीमा बीत गई</translation>
    </message>
</context>
<context>
    <name>ComplaintsPage</name>
    <message>
        <source>Open</source>
        <translation>खुली</translation>
    </message>
    <message>
        <source>With the distributor</source>
        <translation>डिस्ट्रीब्यूटर के पास</translation>
    </message>
    <message>
        <source>Credited back</source>
        <translation>पैसा वापस</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>नामंज़ूर</translation>
    </message>
    <message>
        <source>Complaint</source>
        <translation>शिकायत</translation>
    </message>
    <message>
        <source>Sale</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>नंबर</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>कारण</translation>
    </message>
    <message>
        <source>State</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>Raised (IST)</source>
        <translation>दर्ज (IST)</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>कितनी पुरानी</translation>
    </message>
    <message>
        <source>Deadline (IST)</source>
        <translation>समय-सीमा (IST)</translation>
    </message>
    <message>
        <source>%1 — PAST DEADLINE</source>
        <translation>%1 — समय-सीमा बीत गई</translation>
    </message>
    <message>
        <source>Resol&amp;ve…</source>
        <translation>निपटाएँ… (&amp;V)</translation>
    </message>
    <message>
        <source>Not resolved yet</source>
        <translation>अभी नहीं निपटीं</translation>
    </message>
    <message>
        <source>All</source>
        <translation>सभी</translation>
    </message>
    <message>
        <source>Refresh (F5)</source>
        <translation>रीफ़्रेश (F5)</translation>
    </message>
    <message>
        <source>&amp;Show</source>
        <translation>दिखाएँ (&amp;S)</translation>
    </message>
    <message>
        <source>Complaints</source>
        <translation>शिकायतें</translation>
    </message>
    <message>
        <source>Customers&apos; complaints about sales: the ones not resolved yet first. Each is due within the shop&apos;s deadline (Settings); one past it is marked PAST DEADLINE.</source>
        <translation>बिक्री पर ग्राहकों की शिकायतें: जो अभी नहीं निपटीं, वे पहले। हर शिकायत दुकान की समय-सीमा (सेटिंग्स) में निपटानी है; जो उससे आगे निकल गई, उस पर “समय-सीमा बीत गई” लिखा होता है।</translation>
    </message>
    <message>
        <source>The complaints could not be loaded: %1</source>
        <translation>शिकायतें लोड नहीं हो सकीं: %1</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 दिन %2 घंटे</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 घंटे %2 मिनट</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 मिनट</translation>
    </message>
</context>
<context>
    <name>CreditLimitDialog</name>
    <message>
        <source>Credit limit of %1</source>
        <translation>%1 की उधार सीमा</translation>
    </message>
    <message>
        <source>%1 · balance %2 · credit limit now %3</source>
        <translation>%1 · बैलेंस %2 · अभी उधार सीमा %3</translation>
    </message>
    <message>
        <source>&amp;Set limit</source>
        <translation>सीमा तय करें (&amp;S)</translation>
    </message>
    <message>
        <source>Credit &amp;limit (₹)</source>
        <translation>उधार सीमा (₹) (&amp;L)</translation>
    </message>
    <message>
        <source>The shop may sell until its live wallet is this far below zero; beyond it its sales are refused for insufficient balance. 0 means no credit.</source>
        <translation>दुकान तब तक बेच सकती है जब तक उसका लाइव वॉलेट शून्य से इतना नीचे न चला जाए; उससे आगे कम बैलेंस के कारण उसकी बिक्री नहीं होगी। 0 का मतलब कोई उधार नहीं।</translation>
    </message>
    <message>
        <source>Type the limit in whole rupees (0 for no credit).</source>
        <translation>सीमा पूरे रुपयों में लिखें (उधार न देना हो तो 0)।</translation>
    </message>
    <message>
        <source>The limit can be at most %1.</source>
        <translation>सीमा ज़्यादा से ज़्यादा %1 हो सकती है।</translation>
    </message>
</context>
<context>
    <name>CustomerDisplayPanel</name>
    <message>
        <source>Welcome</source>
        <translation>आपका स्वागत है</translation>
    </message>
    <message>
        <source>Amount to pay</source>
        <translation>भुगतान की राशि</translation>
    </message>
    <message>
        <source>Please pay in cash at the counter</source>
        <translation>कृपया काउंटर पर नकद भुगतान करें</translation>
    </message>
    <message>
        <source>Pay by any UPI app; the shop confirms receipt</source>
        <extracomment>RechargeDesk cannot see the payment: the clerk checks the shop&apos;s UPI app or soundbox.</extracomment>
        <translation>किसी भी UPI ऐप से भुगतान करें; पैसे मिलने पर दुकानदार पुष्टि करेंगे</translation>
    </message>
    <message>
        <source>Recharged ✓</source>
        <translation>रिचार्ज हो गया ✓</translation>
    </message>
    <message>
        <source>Paid %1</source>
        <extracomment>What the customer paid for a recharge that went through, e.g. &quot;Paid ₹299.00&quot;.</extracomment>
        <translation>भुगतान: %1</translation>
    </message>
    <message>
        <source>Not recharged — nothing to pay</source>
        <translation>रिचार्ज नहीं हुआ — कोई भुगतान नहीं करना है</translation>
    </message>
    <message>
        <source>Waiting for the operator</source>
        <extracomment>The telecom operator (Jio, Airtel…) has not answered yet; not the shop&apos;s clerk.</extracomment>
        <translation>ऑपरेटर कंपनी के जवाब का इंतज़ार है</translation>
    </message>
    <message>
        <source>Amount %1</source>
        <extracomment>The amount of a sale still waiting, e.g. &quot;Amount ₹299.00&quot;.</extracomment>
        <translation>राशि: %1</translation>
    </message>
    <message>
        <source>The operator has not confirmed the recharge yet. The shop will tell you when it does.</source>
        <translation>ऑपरेटर कंपनी ने अभी रिचार्ज की पुष्टि नहीं की है। पुष्टि होते ही दुकानदार आपको बताएँगे।</translation>
    </message>
    <message>
        <source>Not recharged — your money will be given back</source>
        <translation>रिचार्ज नहीं हुआ — आपके पैसे वापस मिलेंगे</translation>
    </message>
    <message>
        <source>To be given back: %1</source>
        <translation>वापस मिलेंगे: %1</translation>
    </message>
    <message>
        <source>The shop returns it by UPI.</source>
        <translation>दुकानदार पैसे UPI से लौटाएँगे।</translation>
    </message>
    <message>
        <source>The shop returns it in cash.</source>
        <translation>दुकानदार पैसे नकद लौटाएँगे।</translation>
    </message>
</context>
<context>
    <name>CustomerDisplayWindow</name>
    <message>
        <source>Customer display</source>
        <translation>ग्राहक स्क्रीन</translation>
    </message>
</context>
<context>
    <name>DayEndPage</name>
    <message>
        <source>&amp;Print…</source>
        <translation>प्रिंट करें (&amp;P)…</translation>
    </message>
    <message>
        <source>Save P&amp;DF…</source>
        <translation>PDF सेव करें (&amp;D)…</translation>
    </message>
    <message>
        <source>Sales (₹)</source>
        <translation>बिक्री (₹)</translation>
    </message>
    <message>
        <source>Day-end report</source>
        <translation>दिन के अंत की रिपोर्ट</translation>
    </message>
    <message>
        <source>&amp;Date</source>
        <translation>तारीख (&amp;D)</translation>
    </message>
    <message>
        <source>Hour (IST)</source>
        <translation>घंटा (IST)</translation>
    </message>
    <message>
        <source>Successful sales, ₹</source>
        <translation>सफल बिक्री, ₹</translation>
    </message>
    <message>
        <source>Loading the report for %1…</source>
        <translation>%1 की रिपोर्ट लोड हो रही है…</translation>
    </message>
    <message>
        <source>Could not load the report: %1</source>
        <translation>रिपोर्ट लोड नहीं हो सकी: %1</translation>
    </message>
    <message>
        <source>No report is shown yet.</source>
        <translation>अभी कोई रिपोर्ट नहीं दिखाई गई है।</translation>
    </message>
    <message>
        <source>Day-end report %1</source>
        <translation>दिन के अंत की रिपोर्ट %1</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>फ़ाइल %1 नहीं लिखी जा सकी।</translation>
    </message>
    <message>
        <source>Print the day-end report</source>
        <translation>दिन के अंत की रिपोर्ट प्रिंट करें</translation>
    </message>
    <message>
        <source>The report was sent to the printer.</source>
        <translation>रिपोर्ट प्रिंटर पर भेज दी गई।</translation>
    </message>
    <message>
        <source>The printer could not start. Check that it is switched on and has paper.</source>
        <translation>प्रिंटर शुरू नहीं हो सका। देखें कि वह चालू है और उसमें कागज़ है।</translation>
    </message>
    <message>
        <source>Save the day-end report as PDF</source>
        <translation>दिन के अंत की रिपोर्ट PDF में सेव करें</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF फ़ाइलें (*.pdf)</translation>
    </message>
    <message>
        <source>Report saved to %1</source>
        <translation>रिपोर्ट %1 में सेव हो गई</translation>
    </message>
    <message>
        <source>Refresh (F5)</source>
        <translation>रीफ़्रेश (F5)</translation>
    </message>
    <message>
        <source>Reload the report (F5 or Ctrl+R)</source>
        <translation>रिपोर्ट दोबारा लोड करें (F5 या Ctrl+R)</translation>
    </message>
</context>
<context>
    <name>DayEndReportModel</name>
    <message>
        <source>Mobile</source>
        <translation>मोबाइल</translation>
    </message>
    <message>
        <source>DTH</source>
        <translation>DTH</translation>
    </message>
    <message>
        <source>Voucher</source>
        <translation>वाउचर</translation>
    </message>
    <message>
        <source>Counter (API)</source>
        <translation>काउंटर (API)</translation>
    </message>
    <message numerus="yes">
        <source>Of the pending sales, %n (wallet debit %1) are still unknown at the upstream: no definite answer yet, so neither sold nor refunded. Recheck them in History → Unknown at upstream.</source>
        <translation>
            <numerusform>पेंडिंग बिक्री में से %n (वॉलेट से कटौती %1) का अपस्ट्रीम पर अभी पता नहीं है: अभी कोई पक्का जवाब नहीं आया, इसलिए ये न बिकी मानी गईं, न रिफ़ंड हुईं। इन्हें इतिहास → अपस्ट्रीम पर अज्ञात में फिर जाँचें।</numerusform>
            <numerusform>पेंडिंग बिक्री में से %n (वॉलेट से कटौती %1) का अपस्ट्रीम पर अभी पता नहीं है: अभी कोई पक्का जवाब नहीं आया, इसलिए ये न बिकी मानी गईं, न रिफ़ंड हुईं। इन्हें इतिहास → अपस्ट्रीम पर अज्ञात में फिर जाँचें।</numerusform>
        </translation>
    </message>
    <message>
        <source>Day-end (Z) report</source>
        <translation>दिन के अंत की (Z) रिपोर्ट</translation>
    </message>
    <message>
        <source>%1 (IST)</source>
        <translation>%1 (IST)</translation>
    </message>
    <message>
        <source>TEST MODE</source>
        <translation>टेस्ट मोड</translation>
    </message>
    <message>
        <source>Sales</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Successful sales</source>
        <translation>सफल बिक्री</translation>
    </message>
    <message>
        <source>Pending sales</source>
        <translation>पेंडिंग बिक्री</translation>
    </message>
    <message>
        <source>Failed sales</source>
        <translation>असफल बिक्री</translation>
    </message>
    <message>
        <source>Bill amount (successful)</source>
        <translation>बिल राशि (सफल)</translation>
    </message>
    <message>
        <source>Commission earned</source>
        <translation>कमाया गया कमीशन</translation>
    </message>
    <message>
        <source>Wallet debit (successful)</source>
        <translation>वॉलेट से कटौती (सफल)</translation>
    </message>
    <message>
        <source>Wallet</source>
        <translation>वॉलेट</translation>
    </message>
    <message>
        <source>Opening balance</source>
        <translation>शुरुआती बैलेंस</translation>
    </message>
    <message>
        <source>Top-ups</source>
        <translation>टॉप-अप</translation>
    </message>
    <message>
        <source>Debits for sales</source>
        <translation>बिक्री के लिए कटौती</translation>
    </message>
    <message>
        <source>Refunds of failed sales</source>
        <translation>असफल बिक्री के रिफ़ंड</translation>
    </message>
    <message>
        <source>Closing balance</source>
        <translation>अंतिम बैलेंस</translation>
    </message>
    <message>
        <source>By type and operator</source>
        <translation>प्रकार और ऑपरेटर के अनुसार</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>सफल</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>पेंडिंग</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>असफल</translation>
    </message>
    <message>
        <source>Bill</source>
        <translation>बिल</translation>
    </message>
    <message>
        <source>Commission</source>
        <translation>कमीशन</translation>
    </message>
    <message>
        <source>Wallet debit</source>
        <translation>वॉलेट से कटौती</translation>
    </message>
    <message>
        <source>No sales on this day.</source>
        <translation>इस दिन कोई बिक्री नहीं हुई।</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>कुल</translation>
    </message>
    <message>
        <source>By clerk (successful sales)</source>
        <translation>क्लर्क के अनुसार (सफल बिक्री)</translation>
    </message>
    <message>
        <source>Clerk</source>
        <translation>क्लर्क</translation>
    </message>
    <message>
        <source>None.</source>
        <translation>कोई नहीं।</translation>
    </message>
    <message>
        <source>By payment (successful sales)</source>
        <translation>भुगतान के तरीके के अनुसार (सफल बिक्री)</translation>
    </message>
    <message>
        <source>Payment</source>
        <translation>भुगतान</translation>
    </message>
    <message>
        <source>Shifts</source>
        <translation>शिफ़्ट</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>टर्मिनल</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>शुरू</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>बंद</translation>
    </message>
    <message>
        <source>Opening cash</source>
        <translation>शुरुआती नकद</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>अपेक्षित</translation>
    </message>
    <message>
        <source>Counted</source>
        <translation>गिना गया</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>अंतर</translation>
    </message>
    <message>
        <source>Sales by hour (IST)</source>
        <translation>घंटेवार बिक्री (IST)</translation>
    </message>
    <message>
        <source>Complaints</source>
        <translation>शिकायतें</translation>
    </message>
    <message>
        <source>Raised</source>
        <translation>दर्ज हुईं</translation>
    </message>
    <message>
        <source>Still open at the day&apos;s end</source>
        <translation>दिन के अंत तक खुली</translation>
    </message>
    <message>
        <source>Credited back</source>
        <translation>पैसा वापस</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>नामंज़ूर</translation>
    </message>
</context>
<context>
    <name>DigitsLineEdit</name>
    <message>
        <source>Whole rupees only — the amount can&apos;t have paise.</source>
        <translation>सिर्फ़ पूरे रुपये — राशि में पैसे नहीं हो सकते।</translation>
    </message>
    <message>
        <source>Whole rupees only — the amount stays ₹%1, without paise.</source>
        <translation>सिर्फ़ पूरे रुपये — राशि ₹%1 ही रहेगी, पैसे नहीं जुड़ेंगे।</translation>
    </message>
    <message>
        <source>Digits only — spaces can&apos;t go in this field.</source>
        <translation>सिर्फ़ अंक — इस खाने में स्पेस नहीं डाल सकते।</translation>
    </message>
    <message>
        <source>Digits only — “%1” can&apos;t go in this field.</source>
        <translation>सिर्फ़ अंक — इस खाने में “%1” नहीं डाल सकते।</translation>
    </message>
    <message numerus="yes">
        <source>At most %n digits.</source>
        <translation>
            <numerusform>ज़्यादा से ज़्यादा %n अंक।</numerusform>
            <numerusform>ज़्यादा से ज़्यादा %n अंक।</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DistributorBalanceWatch</name>
    <message>
        <source>Distributor balance %1 — below %2</source>
        <translation>डिस्ट्रीब्यूटर बैलेंस %1 — %2 से कम</translation>
    </message>
    <message>
        <source>Distributor %1 — below %2</source>
        <translation>डिस्ट्रीब्यूटर %1 — %2 से कम</translation>
    </message>
    <message>
        <source>Your distributor&apos;s figure for this shop is below the low-balance threshold: request a top-up in Back office → Wallet → Distributor. Sales go on as usual.</source>
        <translation>आपके डिस्ट्रीब्यूटर के हिसाब से इस दुकान का बैलेंस कम बैलेंस की सीमा से नीचे है: बैक ऑफ़िस → वॉलेट → डिस्ट्रीब्यूटर में टॉप-अप माँगें। बिक्री पहले की तरह चलती रहेगी।</translation>
    </message>
</context>
<context>
    <name>DistributorPanel</name>
    <message>
        <source>Asked (IST)</source>
        <translation>कब माँगा (IST)</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>Paid by</source>
        <translation>भुगतान का तरीका</translation>
    </message>
    <message>
        <source>UTR</source>
        <translation>UTR</translation>
    </message>
    <message>
        <source>State</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>Distributor</source>
        <translation>डिस्ट्रीब्यूटर</translation>
    </message>
    <message>
        <source>Check &amp;again</source>
        <translation>फिर जाँचें (&amp;A)</translation>
    </message>
    <message>
        <source>Re&amp;quest top-up…</source>
        <translation>टॉप-अप माँगें (&amp;Q)…</translation>
    </message>
    <message>
        <source>Their figure for us</source>
        <translation>उनके हिसाब से हमारा बैलेंस</translation>
    </message>
    <message>
        <source>Our live wallet</source>
        <translation>हमारा लाइव वॉलेट</translation>
    </message>
    <message>
        <source>Top-up requests (newest first)</source>
        <translation>टॉप-अप रिक्वेस्ट (नई सबसे ऊपर)</translation>
    </message>
    <message>
        <source>The requests could not be loaded: %1</source>
        <translation>रिक्वेस्ट लोड नहीं हो सकीं: %1</translation>
    </message>
    <message>
        <source>The figures could not be read from our server: %1</source>
        <translation>हमारे सर्वर से आँकड़े नहीं पढ़े जा सके: %1</translation>
    </message>
    <message>
        <source>Checked at %1 IST</source>
        <translation>%1 IST पर जाँचा</translation>
    </message>
    <message>
        <source>Tried at %1 IST</source>
        <translation>%1 IST पर कोशिश की</translation>
    </message>
    <message>
        <source>The distributor could not be asked: %1. Sales go on as usual; the figures are asked again later.</source>
        <translation>डिस्ट्रीब्यूटर से पूछा नहीं जा सका: %1। बिक्री पहले की तरह चलती रहेगी; आँकड़े थोड़ी देर बाद फिर पूछे जाएँगे।</translation>
    </message>
    <message>
        <source>no figure in its answer</source>
        <translation>उसके जवाब में कोई आँकड़ा नहीं</translation>
    </message>
</context>
<context>
    <name>DrawerCount</name>
    <message>
        <source>₹%1 ×</source>
        <translation>₹%1 ×</translation>
    </message>
    <message>
        <source>Coins ₹</source>
        <translation>सिक्के ₹</translation>
    </message>
</context>
<context>
    <name>DthRechargePage</name>
    <message>
        <source>DTH recharge</source>
        <translation>DTH रिचार्ज</translation>
    </message>
    <message>
        <source>Choose the DTH operator</source>
        <translation>DTH ऑपरेटर चुनें</translation>
    </message>
    <message>
        <source>Subscriber number</source>
        <translation>सब्सक्राइबर नंबर</translation>
    </message>
    <message>
        <source>Subscriber number: %1</source>
        <translation>सब्सक्राइबर नंबर: %1</translation>
    </message>
    <message>
        <source>Choose the operator first.</source>
        <translation>पहले ऑपरेटर चुनें।</translation>
    </message>
</context>
<context>
    <name>FirstRunPage</name>
    <message>
        <source>Choose the shop&apos;s circle</source>
        <translation>दुकान का सर्किल चुनें</translation>
    </message>
    <message>
        <source>Home circle</source>
        <translation>होम सर्किल</translation>
    </message>
    <message>
        <source>Choose the shop&apos;s circle: the Plans screen opens on it. Type its first letters.</source>
        <translation>दुकान का सर्किल चुनें: प्लान स्क्रीन इसी पर खुलती है। इसके पहले अक्षर टाइप करें।</translation>
    </message>
    <message>
        <source>Welcome to RechargeDesk</source>
        <translation>RechargeDesk में आपका स्वागत है</translation>
    </message>
    <message>
        <source>Set up your shop. You will sign in with the admin name and PIN below; the terminal starts in TEST MODE with sandbox money, so nothing real is sold until a live key is configured.</source>
        <translation>अपनी दुकान सेट करें। आप नीचे दिए एडमिन नाम और PIN से साइन इन करेंगे। टर्मिनल टेस्ट मोड में सैंडबॉक्स पैसे के साथ शुरू होता है, इसलिए लाइव कुंजी सेट होने तक कोई असली बिक्री नहीं होती।</translation>
    </message>
    <message>
        <source>e.g. Sharma Mobile Point</source>
        <translation>जैसे शर्मा मोबाइल पॉइंट</translation>
    </message>
    <message>
        <source>Printed on receipts</source>
        <translation>रसीदों पर छपता है</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>आपका नाम</translation>
    </message>
    <message>
        <source>Shop name</source>
        <translation>दुकान का नाम</translation>
    </message>
    <message>
        <source>Shop address</source>
        <translation>दुकान का पता</translation>
    </message>
    <message>
        <source>Admin name</source>
        <translation>एडमिन का नाम</translation>
    </message>
    <message>
        <source>Admin PIN</source>
        <translation>एडमिन PIN</translation>
    </message>
    <message>
        <source>PIN again</source>
        <translation>PIN दोबारा</translation>
    </message>
    <message>
        <source>Create shop</source>
        <translation>दुकान बनाएँ</translation>
    </message>
    <message>
        <source>Enter the shop&apos;s name.</source>
        <translation>दुकान का नाम लिखें।</translation>
    </message>
    <message>
        <source>Enter the admin&apos;s name.</source>
        <translation>एडमिन का नाम लिखें।</translation>
    </message>
    <message>
        <source>The two PINs differ.</source>
        <translation>दोनों PIN अलग-अलग हैं।</translation>
    </message>
    <message>
        <source>6 to 8 digits</source>
        <translation>6 से 8 अंक</translation>
    </message>
    <message>
        <source>The admin PIN needs 6 to 8 digits.</source>
        <translation>एडमिन PIN में 6 से 8 अंक होने चाहिए।</translation>
    </message>
</context>
<context>
    <name>FundRequestDialog</name>
    <message>
        <source>C&amp;hoose photo…</source>
        <translation>फ़ोटो चुनें (&amp;H)…</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>हटाएँ (&amp;M)</translation>
    </message>
    <message>
        <source>Request a top-up from your distributor</source>
        <translation>अपने डिस्ट्रीब्यूटर से टॉप-अप माँगें</translation>
    </message>
    <message>
        <source>Ask your distributor, %1, to credit your live wallet for money you paid them. They check the UTR against their bank and approve it; your wallet here is then credited with the same amount, once.</source>
        <translation>आपने अपने डिस्ट्रीब्यूटर %1 को जो पैसे दिए हैं, उन्हें अपने लाइव वॉलेट में जमा करने को कहें। वे अपने बैंक में UTR मिलाकर इसे मंज़ूर करते हैं; फिर यहाँ आपके वॉलेट में उतनी ही राशि एक बार जमा हो जाती है।</translation>
    </message>
    <message>
        <source>Rupees, e.g. 5000</source>
        <translation>रुपये, जैसे 5000</translation>
    </message>
    <message>
        <source>As on the bank&apos;s message, e.g. 412345678901</source>
        <translation>जैसा बैंक के मैसेज में है, जैसे 412345678901</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>ज़रूरी नहीं</translation>
    </message>
    <message>
        <source>No photo (optional): PNG or JPEG, at most 1 MiB</source>
        <translation>कोई फ़ोटो नहीं (ज़रूरी नहीं): PNG या JPEG, ज़्यादा से ज़्यादा 1 MiB</translation>
    </message>
    <message>
        <source>&amp;Send request</source>
        <translation>रिक्वेस्ट भेजें (&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Amount (₹)</source>
        <translation>राशि (₹) (&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Paid by</source>
        <translation>भुगतान का तरीका (&amp;P)</translation>
    </message>
    <message>
        <source>&amp;UTR or reference</source>
        <translation>UTR या रेफ़रेंस (&amp;U)</translation>
    </message>
    <message>
        <source>N&amp;ote</source>
        <translation>नोट (&amp;O)</translation>
    </message>
    <message>
        <source>Slip photo</source>
        <translation>पर्ची की फ़ोटो</translation>
    </message>
    <message>
        <source>Photo of the payment slip</source>
        <translation>भुगतान की पर्ची की फ़ोटो</translation>
    </message>
    <message>
        <source>Photos (*.png *.jpg *.jpeg);;All files (*)</source>
        <translation>फ़ोटो (*.png *.jpg *.jpeg);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>Enter the amount you paid in whole rupees, e.g. 5000.</source>
        <translation>आपने जो राशि दी, वह पूरे रुपयों में लिखें, जैसे 5000।</translation>
    </message>
    <message>
        <source>Enter the UTR or reference of the payment: %1 to %2 letters, digits, / or -, as the bank&apos;s message shows it.</source>
        <translation>भुगतान का UTR या रेफ़रेंस लिखें: %1 से %2 अक्षर, अंक, / या -, जैसा बैंक के मैसेज में दिखता है।</translation>
    </message>
    <message>
        <source>The server did not answer: %1</source>
        <translation>सर्वर ने जवाब नहीं दिया: %1</translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation>नहीं भेजी गई: %1</translation>
    </message>
    <message>
        <source>The distributor refused it: %1</source>
        <translation>डिस्ट्रीब्यूटर ने इसे नहीं लिया: %1</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>भेजी जा रही है…</translation>
    </message>
</context>
<context>
    <name>FundRequestsPane</name>
    <message>
        <source>DUPLICATE UTR · %1</source>
        <translation>डुप्लिकेट UTR · %1</translation>
    </message>
    <message>
        <source>No.</source>
        <translation>नं.</translation>
    </message>
    <message>
        <source>Shop</source>
        <translation>दुकान</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>Paid by</source>
        <translation>भुगतान का तरीका</translation>
    </message>
    <message>
        <source>UTR</source>
        <translation>UTR</translation>
    </message>
    <message>
        <source>Asked (IST)</source>
        <translation>कब माँगा (IST)</translation>
    </message>
    <message>
        <source>State</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>&amp;Approve…</source>
        <translation>मंज़ूर करें (&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Reject…</source>
        <translation>नामंज़ूर करें (&amp;R)…</translation>
    </message>
    <message>
        <source>All (pending first)</source>
        <translation>सभी (पेंडिंग पहले)</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>पेंडिंग</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>मंज़ूर</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>नामंज़ूर</translation>
    </message>
    <message>
        <source>Refresh (F5)</source>
        <translation>रीफ़्रेश (F5)</translation>
    </message>
    <message>
        <source>Sho&amp;w</source>
        <translation>दिखाएँ (&amp;W)</translation>
    </message>
    <message>
        <source>What the shops paid you and asked to be credited with. Check the UTR on your bank statement before approving: approving credits the shop&apos;s wallet.</source>
        <translation>दुकानों ने आपको जो पैसे दिए और जिन्हें अपने वॉलेट में जमा करने को कहा। मंज़ूर करने से पहले अपने बैंक स्टेटमेंट में UTR जाँचें: मंज़ूर करते ही पैसा दुकान के वॉलेट में जमा हो जाता है।</translation>
    </message>
    <message>
        <source>No fund request here yet. A shop asks from its own Back office → Wallet → Request top-up…; its request appears here.</source>
        <translation>अभी यहाँ कोई फ़ंड रिक्वेस्ट नहीं है। दुकान अपने बैक ऑफ़िस → वॉलेट → टॉप-अप माँगें… से माँगती है; उसकी रिक्वेस्ट यहाँ दिखती है।</translation>
    </message>
    <message>
        <source>The fund requests could not be loaded: %1</source>
        <translation>फ़ंड रिक्वेस्ट लोड नहीं हो सकीं: %1</translation>
    </message>
    <message>
        <source>UPI</source>
        <translation>UPI</translation>
    </message>
    <message>
        <source>Bank transfer</source>
        <translation>बैंक ट्रांसफ़र</translation>
    </message>
    <message>
        <source>Cash deposit</source>
        <translation>बैंक में नकद जमा</translation>
    </message>
    <message>
        <source>No request selected</source>
        <translation>कोई रिक्वेस्ट नहीं चुनी गई</translation>
    </message>
    <message>
        <source>Request %1 · %2 · %3</source>
        <translation>रिक्वेस्ट %1 · %2 · %3</translation>
    </message>
    <message>
        <source>DUPLICATE UTR: another request carries UTR %1 too. Check your bank statement before approving: one payment must not be credited twice.</source>
        <translation>डुप्लिकेट UTR: एक और रिक्वेस्ट में भी UTR %1 है। मंज़ूर करने से पहले अपना बैंक स्टेटमेंट जाँचें: एक भुगतान दो बार जमा नहीं होना चाहिए।</translation>
    </message>
    <message>
        <source>Paid by %1 · UTR %2</source>
        <translation>%1 से भुगतान · UTR %2</translation>
    </message>
    <message>
        <source>Asked %1 (IST)</source>
        <translation>%1 (IST) को माँगा</translation>
    </message>
    <message>
        <source>Note: “%1”</source>
        <translation>नोट: “%1”</translation>
    </message>
    <message>
        <source>State: %1</source>
        <translation>स्थिति: %1</translation>
    </message>
    <message>
        <source>Decided %1 by %2</source>
        <translation>%1 को %2 ने फ़ैसला किया</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>कारण: %1</translation>
    </message>
    <message>
        <source>No slip attached.</source>
        <translation>कोई पर्ची नहीं लगी है।</translation>
    </message>
    <message>
        <source>Loading the slip…</source>
        <translation>पर्ची लोड हो रही है…</translation>
    </message>
    <message>
        <source>The slip is not an image that can be shown.</source>
        <translation>पर्ची ऐसी तस्वीर नहीं है जिसे दिखाया जा सके।</translation>
    </message>
    <message>
        <source>The slip could not be loaded: %1</source>
        <translation>पर्ची लोड नहीं हो सकी: %1</translation>
    </message>
    <message>
        <source>Credit %1 to %2&apos;s wallet for request %3 (%4, UTR %5)?</source>
        <translation>रिक्वेस्ट %3 (%4, UTR %5) के लिए %2 के वॉलेट में %1 जमा करें?</translation>
    </message>
    <message>
        <source>Careful: another request carries the same UTR (DUPLICATE UTR).</source>
        <translation>सावधान: एक और रिक्वेस्ट में भी यही UTR है (डुप्लिकेट UTR)।</translation>
    </message>
    <message>
        <source>Approve fund request</source>
        <translation>फ़ंड रिक्वेस्ट मंज़ूर करें</translation>
    </message>
    <message>
        <source>&amp;Approve</source>
        <translation>मंज़ूर करें (&amp;A)</translation>
    </message>
    <message>
        <source>Not approved: %1</source>
        <translation>मंज़ूर नहीं हुई: %1</translation>
    </message>
    <message>
        <source>Reject fund request %1</source>
        <translation>फ़ंड रिक्वेस्ट %1 नामंज़ूर करें</translation>
    </message>
    <message>
        <source>%1 asked for %2 (%3, UTR %4). The shop is told the reason; no money moves.</source>
        <translation>%1 ने %2 माँगे (%3, UTR %4)। दुकान को कारण बताया जाएगा; पैसों का कोई लेन-देन नहीं होगा।</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>नामंज़ूर करें (&amp;R)</translation>
    </message>
</context>
<context>
    <name>FundWords</name>
    <message>
        <source>upstream “%1”</source>
        <translation>अपस्ट्रीम “%1”</translation>
    </message>
    <message>
        <source>%1 (upstream “%2”)</source>
        <translation>%1 (अपस्ट्रीम “%2”)</translation>
    </message>
    <message>
        <source>UPI</source>
        <translation>UPI</translation>
    </message>
    <message>
        <source>Bank transfer</source>
        <translation>बैंक ट्रांसफ़र</translation>
    </message>
    <message>
        <source>Cash deposit</source>
        <translation>बैंक में नकद जमा</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>भेजी जा रही है</translation>
    </message>
    <message>
        <source>Waiting for the distributor</source>
        <translation>डिस्ट्रीब्यूटर के जवाब का इंतज़ार</translation>
    </message>
    <message>
        <source>Approved — credited</source>
        <translation>मंज़ूर — जमा हो गया</translation>
    </message>
    <message>
        <source>Approved — crediting here</source>
        <translation>मंज़ूर — यहाँ जमा हो रहा है</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>नामंज़ूर</translation>
    </message>
    <message>
        <source>Rejected: %1</source>
        <translation>नामंज़ूर: %1</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>नहीं ली गई</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>नहीं ली गई: %1</translation>
    </message>
    <message>
        <source>%1 more here than at the distributor</source>
        <translation>डिस्ट्रीब्यूटर से यहाँ %1 ज़्यादा</translation>
    </message>
    <message>
        <source>%1 less here than at the distributor</source>
        <translation>डिस्ट्रीब्यूटर से यहाँ %1 कम</translation>
    </message>
    <message>
        <source>The same here and at the distributor</source>
        <translation>यहाँ और डिस्ट्रीब्यूटर पर बराबर</translation>
    </message>
    <message>
        <source>%1 more here</source>
        <translation>यहाँ %1 ज़्यादा</translation>
    </message>
    <message>
        <source>%1 less here</source>
        <translation>यहाँ %1 कम</translation>
    </message>
    <message>
        <source>1 sale not known at the distributor: %1</source>
        <translation>1 बिक्री डिस्ट्रीब्यूटर के पास दर्ज नहीं: %1</translation>
    </message>
    <message>
        <source>%1 sales not known at the distributor: %2</source>
        <translation>%1 बिक्री डिस्ट्रीब्यूटर के पास दर्ज नहीं: %2</translation>
    </message>
    <message>
        <source>1 sale still pending here: %1</source>
        <translation>1 बिक्री यहाँ अभी पेंडिंग: %1</translation>
    </message>
    <message>
        <source>%1 sales still pending here: %2</source>
        <translation>%1 बिक्री यहाँ अभी पेंडिंग: %2</translation>
    </message>
    <message>
        <source>1 sale failed here but successful at the distributor: %1</source>
        <translation>1 बिक्री यहाँ असफल, पर डिस्ट्रीब्यूटर के पास सफल: %1</translation>
    </message>
    <message>
        <source>%1 sales failed here but successful at the distributor: %2</source>
        <translation>%1 बिक्री यहाँ असफल, पर डिस्ट्रीब्यूटर के पास सफल: %2</translation>
    </message>
    <message>
        <source>1 approved fund request not credited here yet: %1</source>
        <translation>1 मंज़ूर फ़ंड रिक्वेस्ट यहाँ अभी जमा नहीं हुई: %1</translation>
    </message>
    <message>
        <source>%1 approved fund requests not credited here yet: %2</source>
        <translation>%1 मंज़ूर फ़ंड रिक्वेस्ट यहाँ अभी जमा नहीं हुईं: %2</translation>
    </message>
    <message>
        <source>%1 × %2: %3</source>
        <translation>%1 × %2: %3</translation>
    </message>
    <message>
        <source>Unexplained %1 — look into it</source>
        <translation>बिना वजह का अंतर: %1 — इसकी जाँच करें</translation>
    </message>
</context>
<context>
    <name>HistoryDetailPane</name>
    <message>
        <source>Kind</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>When</source>
        <translation>कब</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>नोट</translation>
    </message>
    <message>
        <source>Try</source>
        <translation>प्रयास</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>नतीजा</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>त्रुटि</translation>
    </message>
    <message>
        <source>&amp;Recheck status</source>
        <translation>स्थिति फिर जाँचें (&amp;R)</translation>
    </message>
    <message>
        <source>Re&amp;print receipt</source>
        <translation>रसीद दोबारा प्रिंट करें (&amp;P)</translation>
    </message>
    <message>
        <source>Re&amp;deliver webhook</source>
        <translation>वेबहुक दोबारा भेजें (&amp;D)</translation>
    </message>
    <message>
        <source>Select a sale to see its details</source>
        <translation>ब्योरा देखने के लिए कोई बिक्री चुनें</translation>
    </message>
    <message>
        <source>Wallet ledger</source>
        <translation>वॉलेट खाता</translation>
    </message>
    <message>
        <source>Webhook deliveries</source>
        <translation>वेबहुक डिलीवरी</translation>
    </message>
    <message>
        <source>Transaction %1</source>
        <translation>ट्रांजैक्शन %1</translation>
    </message>
    <message>
        <source>Could not load the sale: %1</source>
        <translation>बिक्री लोड नहीं हो सकी: %1</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Date and time (IST)</source>
        <translation>तारीख और समय (IST)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>नंबर</translation>
    </message>
    <message>
        <source>Customer e-mail</source>
        <translation>ग्राहक का ई-मेल</translation>
    </message>
    <message>
        <source>Redeem code</source>
        <translation>रिडीम कोड</translation>
    </message>
    <message>
        <source>Bill</source>
        <translation>बिल</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>डिस्काउंट</translation>
    </message>
    <message>
        <source>Wallet debit</source>
        <translation>वॉलेट से कटौती</translation>
    </message>
    <message>
        <source>%1, refunded</source>
        <translation>%1, रिफ़ंड हुए</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>रेफ़रेंस</translation>
    </message>
    <message>
        <source>The status changed from %1 to %2.</source>
        <translation>स्थिति %1 से बदलकर %2 हो गई।</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>उपलब्ध नहीं: %1</translation>
    </message>
    <message>
        <source>Webhook deliveries are not available: %1</source>
        <translation>वेबहुक डिलीवरी उपलब्ध नहीं: %1</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>पहुँच गया</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>असफल</translation>
    </message>
    <message>
        <source>No webhook was sent for this sale (webhooks are sent when a PENDING sale settles, or none is configured).</source>
        <translation>इस बिक्री के लिए कोई वेबहुक नहीं भेजा गया (वेबहुक तब भेजा जाता है जब कोई पेंडिंग बिक्री पूरी होती है; या कोई वेबहुक सेट नहीं है)।</translation>
    </message>
    <message>
        <source>Reprint receipt (DUPLICATE)</source>
        <translation>रसीद दोबारा प्रिंट करें (डुप्लिकेट)</translation>
    </message>
    <message>
        <source>Duplicate receipt sent to the printer.</source>
        <translation>डुप्लिकेट रसीद प्रिंटर पर भेज दी गई।</translation>
    </message>
    <message>
        <source>The printer could not start. Check that it is switched on and has paper.</source>
        <translation>प्रिंटर शुरू नहीं हो सका। देखें कि वह चालू है और उसमें कागज़ है।</translation>
    </message>
    <message>
        <source>Could not redeliver: %1</source>
        <translation>दोबारा नहीं भेजा जा सका: %1</translation>
    </message>
    <message>
        <source>The webhook is queued for delivery again.</source>
        <translation>वेबहुक दोबारा भेजने के लिए कतार में लग गया है।</translation>
    </message>
    <message>
        <source>Resol&amp;ve…</source>
        <translation>हाथ से निपटाएँ… (&amp;V)</translation>
    </message>
    <message>
        <source>End this PENDING sale by hand after checking it at the upstream (an admin&apos;s PIN confirms)</source>
        <translation>अपस्ट्रीम पर जाँचने के बाद इस पेंडिंग बिक्री को हाथ से पूरा करें (एडमिन का PIN पुष्टि करता है)</translation>
    </message>
    <message>
        <source>Needs attention. %1</source>
        <translation>ध्यान चाहिए। %1</translation>
    </message>
    <message>
        <source>Resolved as not recharged: the sale is FAILED and %1 went back to the wallet.</source>
        <translation>रिचार्ज नहीं हुआ, ऐसे निपटाई गई: बिक्री असफल है और %1 वॉलेट में वापस गए।</translation>
    </message>
    <message>
        <source>Resolved as recharged: the sale is SUCCESS.</source>
        <translation>रिचार्ज हुआ, ऐसे निपटाई गई: बिक्री सफल है।</translation>
    </message>
    <message>
        <source>%1.
%2</source>
        <translation>%1।
%2</translation>
    </message>
    <message>
        <source>Money back</source>
        <translation>पैसे वापस</translation>
    </message>
    <message>
        <source>Give %1 back to the customer: the sale failed after they paid. The wallet debit was refunded.</source>
        <translation>ग्राहक को %1 वापस दें: उनके भुगतान के बाद बिक्री असफल हुई। वॉलेट से कटी राशि रिफ़ंड हो गई है।</translation>
    </message>
    <message>
        <source>Payment</source>
        <translation>भुगतान</translation>
    </message>
    <message>
        <source>Shift</source>
        <translation>शिफ़्ट</translation>
    </message>
    <message>
        <source>Shift %1</source>
        <translation>शिफ़्ट %1</translation>
    </message>
    <message>
        <source>Send %1 back to the customer by UPI: the sale failed after they paid. The wallet debit was refunded.</source>
        <translation>ग्राहक को %1 UPI से वापस भेजें: उनके भुगतान के बाद बिक्री असफल हुई। वॉलेट से कटी राशि रिफ़ंड हो गई है।</translation>
    </message>
    <message>
        <source>Credited back after complaint %1 (%2)</source>
        <translation>शिकायत %1 पर पैसा वापस (%2)</translation>
    </message>
</context>
<context>
    <name>HistoryModel</name>
    <message>
        <source>Mobile</source>
        <translation>मोबाइल</translation>
    </message>
    <message>
        <source>DTH</source>
        <translation>DTH</translation>
    </message>
    <message>
        <source>Voucher</source>
        <translation>वाउचर</translation>
    </message>
    <message>
        <source>Click to sort</source>
        <translation>इस कॉलम से क्रम लगाने के लिए क्लिक करें</translation>
    </message>
    <message>
        <source>This column does not sort</source>
        <translation>इस कॉलम से क्रम नहीं लगता</translation>
    </message>
    <message>
        <source>Date and time (IST)</source>
        <translation>तारीख और समय (IST)</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Number / e-mail</source>
        <translation>नंबर / ई-मेल</translation>
    </message>
    <message>
        <source>Bill</source>
        <translation>बिल</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>डिस्काउंट</translation>
    </message>
    <message>
        <source>Wallet debit</source>
        <translation>वॉलेट से कटौती</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>रेफ़रेंस</translation>
    </message>
    <message>
        <source>Unknown at the upstream: no definite answer yet (being sent again with the same reference)</source>
        <translation>अपस्ट्रीम पर अज्ञात: अभी कोई पक्का जवाब नहीं (उसी रेफ़रेंस से दोबारा भेजी जा रही है)</translation>
    </message>
    <message>
        <source>Needs attention: the upstream has not ended this sale for a long time. Select it to see what is known and to resolve it.</source>
        <translation>ध्यान चाहिए: अपस्ट्रीम ने यह बिक्री बहुत देर से पूरी नहीं की। क्या पता है यह देखने और इसे निपटाने के लिए इसे चुनें।</translation>
    </message>
    <message>
        <source>Unknown at the upstream: no definite answer yet (sent once; it is never sent again)</source>
        <translation>अपस्ट्रीम पर अज्ञात: अभी कोई पक्का जवाब नहीं (एक बार भेजी गई; दोबारा कभी नहीं भेजी जाएगी)</translation>
    </message>
    <message>
        <source>%1: the sale is FAILED now and its money went back to the wallet once.</source>
        <translation>%1: बिक्री अब असफल है और इसका पैसा एक बार वॉलेट में वापस आ गया।</translation>
    </message>
    <message>
        <source>FAILED · reversed</source>
        <translation>FAILED · पलटी गई</translation>
    </message>
    <message>
        <source>Failed after the customer had paid (it was PENDING first): %1 given back to the customer. The wallet debit was refunded.</source>
        <translation>ग्राहक के भुगतान के बाद असफल (पहले PENDING थी): %1 ग्राहक को वापस दिए गए। वॉलेट से कटी राशि रिफ़ंड हो गई है।</translation>
    </message>
    <message>
        <source>FAILED · money back</source>
        <translation>FAILED · पैसे वापस</translation>
    </message>
    <message>
        <source>No payment was recorded with this sale (an older sale, or one from an API client that sends none)</source>
        <translation>इस बिक्री के साथ भुगतान का तरीका दर्ज नहीं हुआ (पुरानी बिक्री, या किसी ऐसे API क्लाइंट की जो इसे नहीं भेजता)</translation>
    </message>
    <message>
        <source>Payment</source>
        <translation>भुगतान</translation>
    </message>
</context>
<context>
    <name>HistoryPage</name>
    <message>
        <source>E&amp;xport CSV…</source>
        <translation>CSV एक्सपोर्ट करें (&amp;X)…</translation>
    </message>
    <message>
        <source>Transaction history</source>
        <translation>ट्रांजैक्शन इतिहास</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>सभी प्रकार</translation>
    </message>
    <message>
        <source>Mobile</source>
        <translation>मोबाइल</translation>
    </message>
    <message>
        <source>DTH</source>
        <translation>DTH</translation>
    </message>
    <message>
        <source>Voucher</source>
        <translation>वाउचर</translation>
    </message>
    <message>
        <source>All operators</source>
        <translation>सभी ऑपरेटर</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>कोई भी स्थिति</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>सफल</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>पेंडिंग</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>असफल</translation>
    </message>
    <message>
        <source>Transaction id, number or reference</source>
        <translation>ट्रांजैक्शन ID, नंबर या रेफ़रेंस</translation>
    </message>
    <message>
        <source>&amp;From</source>
        <translation>से (&amp;F)</translation>
    </message>
    <message>
        <source>&amp;To</source>
        <translation>तक (&amp;T)</translation>
    </message>
    <message>
        <source>T&amp;ype</source>
        <translation>प्रकार (&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Operator</source>
        <translation>ऑपरेटर (&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Status</source>
        <translation>स्थिति (&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;earch</source>
        <translation>खोजें (&amp;E)</translation>
    </message>
    <message>
        <source>Could not load the history: %1</source>
        <translation>इतिहास लोड नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>The From date is after the To date.</source>
        <translation>&quot;से&quot; वाली तारीख &quot;तक&quot; वाली तारीख के बाद की है।</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>गिनती हो रही है…</translation>
    </message>
    <message>
        <source>Totals not available: %1</source>
        <translation>कुल जोड़ उपलब्ध नहीं: %1</translation>
    </message>
    <message>
        <source>Sales: %1  (%2 successful, %3 pending, %4 failed)  ·  Bill %5  ·  Discount %6  ·  Wallet debit %7 (money over successful sales)</source>
        <translation>बिक्री: %1  (%2 सफल, %3 पेंडिंग, %4 असफल)  ·  बिल %5  ·  डिस्काउंट %6  ·  वॉलेट से कटौती %7 (सफल बिक्री की रकम)</translation>
    </message>
    <message>
        <source>Export transactions as CSV</source>
        <translation>ट्रांजैक्शन CSV में एक्सपोर्ट करें</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV फ़ाइलें (*.csv)</translation>
    </message>
    <message>
        <source>Exporting sales to %1…</source>
        <translation>बिक्री %1 में एक्सपोर्ट हो रही है…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>रद्द करें</translation>
    </message>
    <message>
        <source>CSV export</source>
        <translation>CSV एक्सपोर्ट</translation>
    </message>
    <message>
        <source>Exported %1 sales to %2.</source>
        <translation>%1 बिक्री %2 में एक्सपोर्ट हो गईं।</translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation>एक्सपोर्ट नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>Export cancelled; no file was written.</source>
        <translation>एक्सपोर्ट रद्द हुआ; कोई फ़ाइल नहीं लिखी गई।</translation>
    </message>
    <message>
        <source>Refresh (F5)</source>
        <translation>रीफ़्रेश (F5)</translation>
    </message>
    <message>
        <source>Unknown at &amp;upstream</source>
        <translation>अपस्ट्रीम पर अज्ञात (&amp;U)</translation>
    </message>
    <message>
        <source>Only live sales with no definite answer from the upstream yet</source>
        <translation>सिर्फ़ वे लाइव बिक्री जिनका अपस्ट्रीम से अभी कोई पक्का जवाब नहीं आया</translation>
    </message>
    <message>
        <source>Reload the sales and totals (F5 or Ctrl+R)</source>
        <translation>बिक्री और कुल योग दोबारा लोड करें (F5 या Ctrl+R)</translation>
    </message>
    <message>
        <source>Only live sales the upstream has not ended for a long time, of every date (Alt+N)</source>
        <translation>सिर्फ़ वे लाइव बिक्री जिन्हें अपस्ट्रीम ने बहुत देर से पूरा नहीं किया, हर तारीख़ की (Alt+N)</translation>
    </message>
    <message>
        <source>Needs attention</source>
        <translation>ध्यान चाहिए</translation>
    </message>
    <message>
        <source>Pay&amp;ment</source>
        <translation>भुगतान (&amp;M)</translation>
    </message>
    <message>
        <source>How the customer paid the shop: cash, UPI, or sales that recorded none</source>
        <translation>ग्राहक ने दुकान को कैसे भुगतान किया: नकद, UPI, या वे बिक्री जिनमें यह दर्ज नहीं हुआ</translation>
    </message>
    <message>
        <source>Any payment</source>
        <translation>कोई भी भुगतान</translation>
    </message>
</context>
<context>
    <name>KeysPage</name>
    <message>
        <source>Key id</source>
        <translation>कुंजी ID</translation>
    </message>
    <message>
        <source>%1 (this terminal)</source>
        <translation>%1 (यह टर्मिनल)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>नाम</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>मोड</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>लाइव</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>टेस्ट</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>अधिकार</translation>
    </message>
    <message>
        <source>Admin</source>
        <translation>एडमिन</translation>
    </message>
    <message>
        <source>Point of sale</source>
        <translation>बिक्री काउंटर</translation>
    </message>
    <message>
        <source>Created (IST)</source>
        <translation>बनी (IST)</translation>
    </message>
    <message>
        <source>State</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>सक्रिय</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>%1 को बंद की गई</translation>
    </message>
    <message>
        <source>&amp;Create key</source>
        <translation>कुंजी बनाएँ (&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Revoke selected key…</source>
        <translation>चुनी हुई कुंजी बंद करें (&amp;R)…</translation>
    </message>
    <message>
        <source>e.g. Counter 2 tablet</source>
        <translation>जैसे काउंटर 2 का टैबलेट</translation>
    </message>
    <message>
        <source>Test (sandbox)</source>
        <translation>टेस्ट (सैंडबॉक्स)</translation>
    </message>
    <message>
        <source>Live (real recharges)</source>
        <translation>लाइव (असली रिचार्ज)</translation>
    </message>
    <message>
        <source>Point of sale: sell and check status</source>
        <translation>बिक्री काउंटर: बेचना और स्थिति जाँचना</translation>
    </message>
    <message>
        <source>Admin: everything, including the back office</source>
        <translation>एडमिन: सब कुछ, बैक ऑफ़िस समेत</translation>
    </message>
    <message>
        <source>New key</source>
        <translation>नई कुंजी</translation>
    </message>
    <message>
        <source>The secret is shown once, right after the key is made.</source>
        <translation>सीक्रेट सिर्फ़ एक बार दिखता है, कुंजी बनते ही।</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API कुंजियाँ</translation>
    </message>
    <message>
        <source>A key lets a terminal or another program use this shop&apos;s API. Point-of-sale keys can sell; admin keys can also open the back office. Test keys use the sandbox and the test wallet.</source>
        <translation>कुंजी से कोई टर्मिनल या दूसरा प्रोग्राम इस दुकान का API इस्तेमाल कर सकता है। बिक्री काउंटर की कुंजियाँ बेच सकती हैं; एडमिन कुंजियाँ बैक ऑफ़िस भी खोल सकती हैं। टेस्ट कुंजियाँ सैंडबॉक्स और टेस्ट वॉलेट इस्तेमाल करती हैं।</translation>
    </message>
    <message>
        <source>The keys could not be loaded: %1</source>
        <translation>कुंजियाँ लोड नहीं हो सकीं: %1</translation>
    </message>
    <message>
        <source>Give the key a name that says where it is used.</source>
        <translation>कुंजी को ऐसा नाम दें जिससे पता चले कि वह कहाँ इस्तेमाल होती है।</translation>
    </message>
    <message>
        <source>This terminal uses a test key, so it can only make test keys. Live keys are made from a live admin key.</source>
        <translation>यह टर्मिनल टेस्ट कुंजी से चलता है, इसलिए यह सिर्फ़ टेस्ट कुंजियाँ बना सकता है। लाइव कुंजियाँ लाइव एडमिन कुंजी से बनती हैं।</translation>
    </message>
    <message>
        <source>New API key</source>
        <translation>नई API कुंजी</translation>
    </message>
    <message>
        <source>Key id: %1
Name: %2</source>
        <translation>कुंजी ID: %1
नाम: %2</translation>
    </message>
    <message>
        <source>Key secret</source>
        <translation>कुंजी का सीक्रेट</translation>
    </message>
    <message>
        <source>Key %1 created.</source>
        <translation>कुंजी %1 बन गई।</translation>
    </message>
    <message>
        <source>Revoke key</source>
        <translation>कुंजी बंद करें</translation>
    </message>
    <message>
        <source>Revoke %1 (%2)?
Anything using this key stops working at once. This cannot be undone.</source>
        <translation>%1 (%2) बंद करें?
इस कुंजी से चलने वाली हर चीज़ तुरंत काम करना बंद कर देगी। इसे वापस नहीं किया जा सकता।</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>बंद करें</translation>
    </message>
    <message>
        <source>%1 is the key this terminal signs in with, so it cannot revoke itself. Revoke it from another admin terminal, or with &quot;rechargedesk keys revoke&quot; on the server.</source>
        <translation>%1 वह कुंजी है जिससे यह टर्मिनल साइन इन करता है, इसलिए यह ख़ुद को बंद नहीं कर सकता। इसे किसी दूसरे एडमिन टर्मिनल से, या सर्वर पर &quot;rechargedesk keys revoke&quot; से बंद करें।</translation>
    </message>
    <message>
        <source>Key %1 revoked.</source>
        <translation>कुंजी %1 बंद कर दी गई।</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Close the kiosk</source>
        <translation>कियॉस्क बंद करें</translation>
    </message>
    <message>
        <source>RechargeDesk</source>
        <translation>RechargeDesk</translation>
    </message>
    <message>
        <source>Admin PIN needed</source>
        <translation>एडमिन PIN चाहिए</translation>
    </message>
    <message>
        <source>Closing the kiosk needs an admin.</source>
        <translation>कियॉस्क बंद करने के लिए एडमिन चाहिए।</translation>
    </message>
    <message>
        <source>Admin name</source>
        <translation>एडमिन का नाम</translation>
    </message>
    <message>
        <source>PIN</source>
        <translation>PIN</translation>
    </message>
    <message>
        <source>That user is not an admin.</source>
        <translation>यह उपयोगकर्ता एडमिन नहीं है।</translation>
    </message>
    <message>
        <source>Connection to the shop server is not encrypted: anyone on this network can read and change sales, PINs and keys. Ask an admin to start the server with --tls and connect with https://.</source>
        <translation>दुकान के सर्वर से कनेक्शन एन्क्रिप्टेड नहीं है: इस नेटवर्क पर कोई भी बिक्री, PIN और कुंजियाँ पढ़ और बदल सकता है। एडमिन से कहें कि सर्वर को --tls के साथ चलाएँ और https:// से जुड़ें।</translation>
    </message>
    <message>
        <source>Confirm the shop server</source>
        <translation>दुकान के सर्वर की पुष्टि करें</translation>
    </message>
    <message>
        <source>This terminal is connecting to the shop server at %1 for the first time.

The server&apos;s certificate has this SHA-256 fingerprint:

%2

An admin must compare it with the fingerprint the shop server printed when it started (also shown in Back office → Settings on the server). Trust the server only if every pair of characters is the same; otherwise someone on the network may be pretending to be the shop server.</source>
        <translation>यह टर्मिनल पहली बार %1 पर दुकान के सर्वर से जुड़ रहा है।

सर्वर के प्रमाणपत्र का SHA-256 फ़िंगरप्रिंट यह है:

%2

एडमिन इसे उस फ़िंगरप्रिंट से मिलाए जो दुकान के सर्वर ने शुरू होते समय छापा था (सर्वर पर बैक ऑफ़िस → सेटिंग्स में भी दिखता है)। सर्वर पर तभी भरोसा करें जब हर जोड़ी अक्षर एक जैसे हों; वरना नेटवर्क पर कोई दुकान का सर्वर होने का दिखावा कर सकता है।</translation>
    </message>
    <message>
        <source>The fingerprints match — trust this server</source>
        <translation>फ़िंगरप्रिंट मेल खाते हैं — इस सर्वर पर भरोसा करें</translation>
    </message>
    <message>
        <source>Not connected: the shop server&apos;s certificate was not confirmed. Restart the terminal to confirm it.</source>
        <translation>कनेक्ट नहीं: दुकान के सर्वर के प्रमाणपत्र की पुष्टि नहीं हुई। पुष्टि के लिए टर्मिनल फिर से शुरू करें।</translation>
    </message>
    <message>
        <source>The confirmed certificate could not be saved to %1.</source>
        <translation>पुष्टि किया गया प्रमाणपत्र %1 में सहेजा नहीं जा सका।</translation>
    </message>
    <message>
        <source>The shop server&apos;s certificate has changed, so this terminal refuses to connect.

Confirmed on this terminal:
%1

Presented now:
%2

Someone on the network may be pretending to be the shop server. If the certificate was replaced on purpose (a new server, or its tls folder was deleted), an admin checks the new fingerprint the server prints at start, removes the line tls_fingerprint_sha256 from %3 and restarts the terminal to confirm it again.</source>
        <translation>दुकान के सर्वर का प्रमाणपत्र बदल गया है, इसलिए यह टर्मिनल कनेक्ट करने से मना करता है।

इस टर्मिनल पर पुष्टि किया गया:
%1

अभी दिखाया गया:
%2

नेटवर्क पर कोई दुकान का सर्वर होने का दिखावा कर सकता है। अगर प्रमाणपत्र जानबूझकर बदला गया है (नया सर्वर, या उसका tls फ़ोल्डर हटाया गया), तो एडमिन सर्वर द्वारा शुरू में छापा गया नया फ़िंगरप्रिंट जाँचे, %3 से tls_fingerprint_sha256 वाली पंक्ति हटाए और दोबारा पुष्टि के लिए टर्मिनल फिर से शुरू करे।</translation>
    </message>
    <message>
        <source>Not connected: the shop server&apos;s certificate has changed (see the message).</source>
        <translation>कनेक्ट नहीं: दुकान के सर्वर का प्रमाणपत्र बदल गया है (संदेश देखें)।</translation>
    </message>
    <message>
        <source>Shop server certificate changed</source>
        <translation>दुकान के सर्वर का प्रमाणपत्र बदल गया</translation>
    </message>
    <message>
        <source>RechargeDesk — customer display</source>
        <translation>RechargeDesk — ग्राहक स्क्रीन</translation>
    </message>
    <message>
        <source>Cash drawer: %1</source>
        <translation>गल्ला: %1</translation>
    </message>
</context>
<context>
    <name>MarginsDialog</name>
    <message>
        <source>Margins of %1</source>
        <translation>%1 का मार्जिन</translation>
    </message>
    <message>
        <source>The discount %1 receives on each sale, per operator.</source>
        <translation>हर ऑपरेटर के लिए, हर बिक्री पर %1 को मिलने वाला डिस्काउंट।</translation>
    </message>
    <message>
        <source>&amp;Save margins</source>
        <translation>मार्जिन सेव करें (&amp;S)</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>डिफ़ॉल्ट</translation>
    </message>
    <message>
        <source>This shop</source>
        <translation>यह दुकान</translation>
    </message>
    <message>
        <source>Discount on %1</source>
        <translation>%1 पर डिस्काउंट</translation>
    </message>
    <message>
        <source>The shop&apos;s margins could not be loaded: %1</source>
        <translation>दुकान का मार्जिन लोड नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>Nothing to save: no rate changed.</source>
        <translation>सेव करने को कुछ नहीं: कोई दर नहीं बदली।</translation>
    </message>
</context>
<context>
    <name>MobileRechargePage</name>
    <message>
        <source>Mobile recharge</source>
        <translation>मोबाइल रिचार्ज</translation>
    </message>
    <message>
        <source>10-digit mobile number</source>
        <translation>10 अंकों का मोबाइल नंबर</translation>
    </message>
    <message>
        <source>Mobile number</source>
        <translation>मोबाइल नंबर</translation>
    </message>
    <message>
        <source>Choose the operator</source>
        <translation>ऑपरेटर चुनें</translation>
    </message>
    <message>
        <source>Choose the circle (optional)</source>
        <translation>सर्कल चुनें (ज़रूरी नहीं)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Circle</source>
        <translation>सर्कल</translation>
    </message>
    <message>
        <source>Circle: %1</source>
        <translation>सर्कल: %1</translation>
    </message>
    <message>
        <source>Plan: %1</source>
        <translation>प्लान: %1</translation>
    </message>
    <message>
        <source>Unlink</source>
        <translation>हटाएँ</translation>
    </message>
    <message>
        <source>today at %1</source>
        <translation>आज %1 बजे</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>%1 को</translation>
    </message>
    <message>
        <source>Repeat last: %1 %2 (Enter) · sold %3</source>
        <translation>पिछला दोहराएँ: %1 %2 (Enter) · %3 बेचा</translation>
    </message>
    <message>
        <source>Plan unlinked: this sale is a plain amount, not the plan.</source>
        <translation>प्लान हटा दिया गया: यह बिक्री सिर्फ़ राशि की है, प्लान की नहीं।</translation>
    </message>
    <message>
        <source>today</source>
        <translation>आज</translation>
    </message>
    <message>
        <source>Last recharged with %1 %2, from the distributor.</source>
        <translation>पिछला रिचार्ज %2 %1 से हुआ था (डिस्ट्रीब्यूटर के अनुसार)।</translation>
    </message>
    <message>
        <source>Last recharged with %1 %2.</source>
        <translation>पिछला रिचार्ज %2 %1 से हुआ था।</translation>
    </message>
</context>
<context>
    <name>OpenShiftDialog</name>
    <message>
        <source>Open a shift</source>
        <translation>शिफ़्ट शुरू करें</translation>
    </message>
    <message>
        <source>Count the cash in the drawer (the float) and type it. Every sale until you close the shift is counted in it.</source>
        <translation>गल्ले में रखा नकद (छुट्टे के लिए पैसे) गिनकर लिखें। शिफ़्ट बंद करने तक की हर बिक्री इसी में गिनी जाएगी।</translation>
    </message>
    <message>
        <source>%1 at terminal %2</source>
        <translation>टर्मिनल %2 पर %1</translation>
    </message>
    <message>
        <source>e.g. 2000</source>
        <translation>जैसे 2000</translation>
    </message>
    <message>
        <source>Opening cash ₹</source>
        <translation>शुरुआती नकद ₹</translation>
    </message>
    <message>
        <source>Open shift (Enter)</source>
        <translation>शिफ़्ट शुरू करें (Enter)</translation>
    </message>
    <message>
        <source>Not now (Esc)</source>
        <translation>अभी नहीं (Esc)</translation>
    </message>
    <message>
        <source>Type the cash in the drawer now, in rupees (0 if it is empty).</source>
        <translation>गल्ले में अभी जितना नकद है, रुपयों में लिखें (ख़ाली हो तो 0)।</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>शुरू हो रही है…</translation>
    </message>
</context>
<context>
    <name>PlanItem</name>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
</context>
<context>
    <name>PlanTableModel</name>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>वैधता</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>डेटा</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>कॉल</translation>
    </message>
    <message>
        <source>SMS</source>
        <translation>SMS</translation>
    </message>
    <message>
        <source>OTT and offers</source>
        <translation>OTT और ऑफ़र</translation>
    </message>
</context>
<context>
    <name>PlansPage</name>
    <message>
        <source>Plans</source>
        <translation>प्लान</translation>
    </message>
    <message>
        <source>Any</source>
        <translation>कोई भी</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>फ़िल्टर हटाएँ</translation>
    </message>
    <message>
        <source>Sell this plan  ⏎</source>
        <translation>यह प्लान बेचें  ⏎</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Circle</source>
        <translation>सर्कल</translation>
    </message>
    <message>
        <source>Price from</source>
        <translation>कीमत</translation>
    </message>
    <message>
        <source>to</source>
        <translation>से</translation>
    </message>
    <message>
        <source>Loading plans…</source>
        <translation>प्लान लोड हो रहे हैं…</translation>
    </message>
    <message>
        <source>Could not load the plans: %1</source>
        <translation>प्लान लोड नहीं हो सके: %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 in %2: %3 plans in %4 categories</source>
        <translation>%2 में %1: %4 श्रेणियों में %3 प्लान</translation>
    </message>
    <message>
        <source>%1 of %2 plans</source>
        <translation>%2 में से %1 प्लान</translation>
    </message>
    <message>
        <source>No plan matches the filters.</source>
        <translation>फ़िल्टर से मेल खाता कोई प्लान नहीं है।</translation>
    </message>
    <message>
        <source>&lt;i&gt;%1&lt;/i&gt;: %2</source>
        <translation>&lt;i&gt;%1&lt;/i&gt;: %2</translation>
    </message>
    <message>
        <source>Search: price (299), data, validity, Netflix, Hotstar…</source>
        <translation>खोजें: कीमत (299), data, validity, Netflix, Hotstar…</translation>
    </message>
    <message>
        <source>Plans for %1 (%2), the number on the Mobile recharge screen</source>
        <translation>%1 (%2) के लिए प्लान — मोबाइल रिचार्ज स्क्रीन वाला नंबर</translation>
    </message>
    <message>
        <source>Plans for %1, the number on the Mobile recharge screen</source>
        <translation>%1 के लिए प्लान — मोबाइल रिचार्ज स्क्रीन वाला नंबर</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · talktime %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 · टॉकटाइम %3</translation>
    </message>
    <message>
        <source>date unknown</source>
        <translation>तारीख़ अज्ञात</translation>
    </message>
    <message>
        <source>Plans from %1, updated %2</source>
        <translation>%1 से प्लान, %2 को अपडेट</translation>
    </message>
    <message>
        <source>Plans shipped with the program, %1</source>
        <translation>प्रोग्राम के साथ आए प्लान, %1</translation>
    </message>
    <message>
        <source>Plans imported %1</source>
        <translation>%1 को आयात किए गए प्लान</translation>
    </message>
    <message>
        <source> — older than %1 days, prices may have changed</source>
        <translation> — %1 दिन से पुराने, क़ीमतें बदल चुकी हो सकती हैं</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <comment>All other platforms</comment>
        <translation>फ़ोल्डर</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>ड्राइव</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Look in:</source>
        <translation>यहाँ देखें:</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>फ़ाइल का नाम (&amp;N):</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>फ़ाइल का प्रकार:</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>सेव करें (&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>खोलें (&amp;O)</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>पीछे</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>आगे</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>ऊपर वाला फ़ोल्डर</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>नया फ़ोल्डर बनाएँ</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>सूची</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>ब्योरे के साथ सूची</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>नया फ़ोल्डर (&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>नाम बदलें (&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>मिटाएँ (&amp;D)</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>छिपी फ़ाइलें दिखाएँ (&amp;H)</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Name</source>
        <translation>नाम</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>आकार</translation>
    </message>
    <message>
        <source>Type</source>
        <comment>All other platforms</comment>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>बदलने की तारीख</translation>
    </message>
</context>
<context>
    <name>QLineEdit</name>
    <message>
        <source>&amp;Undo</source>
        <translation>पहले जैसा करें (&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>फिर से करें (&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>काटें (&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>कॉपी करें (&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>पेस्ट करें (&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>मिटाएँ</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>सब चुनें</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>ठीक है</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>रद्द करें</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>सेव करें</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>खोलें</translation>
    </message>
</context>
<context>
    <name>QWidgetTextControl</name>
    <message>
        <source>&amp;Undo</source>
        <translation>पहले जैसा करें (&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>फिर से करें (&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>काटें (&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>कॉपी करें (&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>पेस्ट करें (&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>मिटाएँ</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>सब चुनें</translation>
    </message>
</context>
<context>
    <name>RaiseComplaintDialog</name>
    <message>
        <source>Raise complaint about sale %1</source>
        <translation>बिक्री %1 की शिकायत दर्ज करें</translation>
    </message>
    <message>
        <source>Sale %1 · %2 %3 · %4 · %5</source>
        <translation>बिक्री %1 · %2 %3 · %4 · %5</translation>
    </message>
    <message>
        <source>What the customer says (required for Other)</source>
        <translation>ग्राहक क्या कहता है (“दूसरा” के लिए ज़रूरी)</translation>
    </message>
    <message>
        <source>&amp;Raise complaint</source>
        <translation>शिकायत दर्ज करें (&amp;R)</translation>
    </message>
    <message>
        <source>Rea&amp;son</source>
        <translation>कारण (&amp;S)</translation>
    </message>
    <message>
        <source>N&amp;ote</source>
        <translation>नोट (&amp;O)</translation>
    </message>
    <message>
        <source>Not received</source>
        <translation>रिचार्ज नहीं मिला</translation>
    </message>
    <message>
        <source>Wrong number</source>
        <translation>ग़लत नंबर</translation>
    </message>
    <message>
        <source>Wrong operator</source>
        <translation>ग़लत ऑपरेटर</translation>
    </message>
    <message>
        <source>Wrong amount</source>
        <translation>ग़लत राशि</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>दूसरा</translation>
    </message>
    <message>
        <source>Choose the reason.</source>
        <translation>कारण चुनें।</translation>
    </message>
    <message>
        <source>Write what the customer says: the reason is Other.</source>
        <translation>ग्राहक क्या कहता है, लिखें: कारण “दूसरा” है।</translation>
    </message>
    <message>
        <source>The server did not answer: %1</source>
        <translation>सर्वर ने जवाब नहीं दिया: %1</translation>
    </message>
    <message>
        <source>Not raised: %1</source>
        <translation>दर्ज नहीं हुई: %1</translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>&amp;Reason</source>
        <translation>कारण (&amp;R)</translation>
    </message>
    <message>
        <source>Write the reason: it is kept with the change.</source>
        <translation>कारण लिखें: यह बदलाव के साथ दर्ज रहेगा।</translation>
    </message>
</context>
<context>
    <name>ReceiptData</name>
    <message>
        <source>Mobile recharge</source>
        <translation>मोबाइल रिचार्ज</translation>
    </message>
    <message>
        <source>DTH recharge</source>
        <translation>DTH रिचार्ज</translation>
    </message>
    <message>
        <source>Gift voucher</source>
        <translation>गिफ़्ट वाउचर</translation>
    </message>
    <message>
        <source>Subscriber no.</source>
        <translation>सब्सक्राइबर नं.</translation>
    </message>
    <message>
        <source>Mobile no.</source>
        <translation>मोबाइल नं.</translation>
    </message>
    <message>
        <source>Successful</source>
        <translation>सफल</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>पेंडिंग</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>असफल</translation>
    </message>
</context>
<context>
    <name>ReceiptRenderer</name>
    <message>
        <source>DUPLICATE</source>
        <translation>डुप्लिकेट</translation>
    </message>
    <message>
        <source>Date (IST)</source>
        <translation>तारीख (IST)</translation>
    </message>
    <message>
        <source>Transaction</source>
        <translation>ट्रांजैक्शन</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>ई-मेल</translation>
    </message>
    <message>
        <source>Aadhaar</source>
        <translation>आधार</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>रेफ़रेंस</translation>
    </message>
    <message>
        <source>Redeem code</source>
        <translation>रिडीम कोड</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>भुगतान</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>The operator is still processing this sale.</source>
        <translation>ऑपरेटर अभी यह बिक्री पूरी कर रहा है।</translation>
    </message>
    <message>
        <source>Thank you</source>
        <translation>धन्यवाद</translation>
    </message>
    <message>
        <source>Receipt %1</source>
        <translation>रसीद %1</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>फ़ाइल %1 नहीं लिखी जा सकती।</translation>
    </message>
    <message>
        <source>Receipt %1 mm</source>
        <translation>रसीद %1 mm</translation>
    </message>
    <message>
        <source>TEST — NOT A REAL RECHARGE</source>
        <translation>टेस्ट — असली रिचार्ज नहीं</translation>
    </message>
    <message>
        <source>Shop copy</source>
        <translation>दुकान की कॉपी</translation>
    </message>
    <message>
        <source>Circle</source>
        <translation>सर्कल</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>प्लान</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>वैधता</translation>
    </message>
    <message>
        <source>Not recharged — nothing to pay</source>
        <translation>रिचार्ज नहीं हुआ — कोई भुगतान नहीं</translation>
    </message>
    <message>
        <source>Wallet debit</source>
        <translation>वॉलेट से कटौती</translation>
    </message>
    <message>
        <source>%1 refunded</source>
        <translation>%1 रिफ़ंड हुए</translation>
    </message>
    <message>
        <source>Your commission</source>
        <translation>आपका कमीशन</translation>
    </message>
    <message>
        <source>Not recharged — money back</source>
        <translation>रिचार्ज नहीं हुआ — पैसे वापस</translation>
    </message>
    <message>
        <source>Given back</source>
        <translation>वापस दिए</translation>
    </message>
    <message>
        <source>Refund by UPI</source>
        <translation>UPI से वापसी</translation>
    </message>
    <message>
        <source>Paid by</source>
        <translation>भुगतान का तरीका</translation>
    </message>
    <message>
        <source>UPI</source>
        <translation>UPI</translation>
    </message>
    <message>
        <source>Cash</source>
        <translation>नकद</translation>
    </message>
    <message>
        <source>UPI QR for %1</source>
        <translation>%1 के लिए UPI QR</translation>
    </message>
</context>
<context>
    <name>RepeatSalePanel</name>
    <message>
        <source>No, go back (Enter)</source>
        <translation>नहीं, वापस जाएँ (Enter)</translation>
    </message>
    <message>
        <source>Yes, sell again (Y)</source>
        <translation>हाँ, फिर से बेचें (Y)</translation>
    </message>
    <message>
        <source>Transaction %1 · %2 · %3. Selling again charges the wallet again.</source>
        <translation>ट्रांजैक्शन %1 · %2 · %3। फिर से बेचने पर वॉलेट से दोबारा पैसे कटेंगे।</translation>
    </message>
</context>
<context>
    <name>ResolveComplaintDialog</name>
    <message>
        <source>&amp;Credited back — reverse the sale and refund it</source>
        <translation>पैसा वापस — बिक्री उलटें और रिफ़ंड करें (&amp;C)</translation>
    </message>
    <message>
        <source>Re&amp;jected</source>
        <translation>नामंज़ूर (&amp;J)</translation>
    </message>
    <message>
        <source>Resolve complaint %1</source>
        <translation>शिकायत %1 निपटाएँ</translation>
    </message>
    <message>
        <source>Complaint %1 · sale %2 · %3 %4 · %5 · %6</source>
        <translation>शिकायत %1 · बिक्री %2 · %3 %4 · %5 · %6</translation>
    </message>
    <message>
        <source>What to tell the customer (required when rejected)</source>
        <translation>ग्राहक को क्या बताना है (नामंज़ूर करने पर ज़रूरी)</translation>
    </message>
    <message>
        <source>Resol&amp;ve</source>
        <translation>निपटाएँ (&amp;V)</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>नतीजा</translation>
    </message>
    <message>
        <source>&amp;Words</source>
        <translation>शब्द (&amp;W)</translation>
    </message>
    <message>
        <source>Operator &amp;reference</source>
        <translation>ऑपरेटर रेफ़रेंस (&amp;R)</translation>
    </message>
    <message>
        <source>Choose the outcome: credited back, or rejected.</source>
        <translation>नतीजा चुनें: पैसा वापस, या नामंज़ूर।</translation>
    </message>
    <message>
        <source>Write why it is rejected: the customer is told these words.</source>
        <translation>लिखें कि क्यों नामंज़ूर है: ग्राहक को यही शब्द बताए जाएँगे।</translation>
    </message>
    <message>
        <source>The server did not answer: %1</source>
        <translation>सर्वर ने जवाब नहीं दिया: %1</translation>
    </message>
    <message>
        <source>Not resolved: %1</source>
        <translation>नहीं निपटी: %1</translation>
    </message>
</context>
<context>
    <name>ResolveDialog</name>
    <message>
        <source>&amp;Recharged (SUCCESS)</source>
        <translation>रिचार्ज हुआ (SUCCESS) (&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Not recharged — refund (FAILED)</source>
        <translation>रिचार्ज नहीं हुआ — रिफ़ंड (FAILED) (&amp;N)</translation>
    </message>
    <message>
        <source>Resolve sale %1 by hand</source>
        <translation>बिक्री %1 को हाथ से निपटाएँ</translation>
    </message>
    <message>
        <source>Sale %1 · %2 %3 · wallet debit %4 · PENDING since %5 (IST)</source>
        <translation>बिक्री %1 · %2 %3 · वॉलेट से कटौती %4 · %5 (IST) से पेंडिंग</translation>
    </message>
    <message>
        <source>Check this sale on the upstream&apos;s dashboard first. Recharged ends it as sold: the money stays paid. Not recharged ends it as failed and refunds %1 to the wallet once. Either ends the sale for good and is written to the audit log with your note.</source>
        <translation>पहले इस बिक्री को अपस्ट्रीम के डैशबोर्ड पर जाँचें। “रिचार्ज हुआ” इसे बिकी हुई मानकर पूरा करता है: पैसा भुगतान में ही रहता है। “रिचार्ज नहीं हुआ” इसे असफल मानकर पूरा करता है और %1 एक बार वॉलेट में वापस करता है। दोनों में बिक्री हमेशा के लिए पूरी हो जाती है और आपके नोट के साथ ऑडिट लॉग में लिखी जाती है।</translation>
    </message>
    <message>
        <source>What the upstream&apos;s dashboard or statement shows</source>
        <translation>अपस्ट्रीम का डैशबोर्ड या स्टेटमेंट क्या दिखाता है</translation>
    </message>
    <message>
        <source>Resol&amp;ve</source>
        <translation>निपटाएँ (&amp;V)</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>क्या हुआ</translation>
    </message>
    <message>
        <source>N&amp;ote</source>
        <translation>नोट (&amp;O)</translation>
    </message>
    <message>
        <source>Confirm with an admin&apos;s PIN</source>
        <translation>एडमिन के PIN से पुष्टि करें</translation>
    </message>
    <message>
        <source>Admin n&amp;ame</source>
        <translation>एडमिन का नाम (&amp;A)</translation>
    </message>
    <message>
        <source>&amp;PIN</source>
        <translation>PIN (&amp;P)</translation>
    </message>
    <message>
        <source>Resolving…</source>
        <translation>निपटा रहे हैं…</translation>
    </message>
    <message>
        <source>Choose what happened: recharged, or not recharged (refund).</source>
        <translation>चुनें कि क्या हुआ: रिचार्ज हुआ, या रिचार्ज नहीं हुआ (रिफ़ंड)।</translation>
    </message>
    <message>
        <source>Write a note: what the upstream&apos;s dashboard or statement shows (up to %1 characters).</source>
        <translation>नोट लिखें: अपस्ट्रीम का डैशबोर्ड या स्टेटमेंट क्या दिखाता है (ज़्यादा से ज़्यादा %1 अक्षर)।</translation>
    </message>
    <message>
        <source>Enter the admin&apos;s name.</source>
        <translation>एडमिन का नाम लिखें।</translation>
    </message>
    <message>
        <source>Enter the admin&apos;s PIN to confirm.</source>
        <translation>पुष्टि के लिए एडमिन का PIN डालें।</translation>
    </message>
    <message>
        <source>That user is not an admin: only an admin can resolve a sale.</source>
        <translation>यह उपयोगकर्ता एडमिन नहीं है: बिक्री सिर्फ़ एडमिन निपटा सकता है।</translation>
    </message>
    <message>
        <source>The server did not answer: %1</source>
        <translation>सर्वर ने जवाब नहीं दिया: %1</translation>
    </message>
    <message>
        <source>Not resolved: %1</source>
        <translation>नहीं निपटी: %1</translation>
    </message>
</context>
<context>
    <name>SaleChecks</name>
    <message>
        <source>Enter the amount in whole rupees.</source>
        <translation>राशि पूरे रुपयों में लिखें।</translation>
    </message>
    <message>
        <source>The amount is whole rupees: digits only.</source>
        <translation>राशि पूरे रुपयों में होती है: सिर्फ़ अंक लिखें।</translation>
    </message>
    <message>
        <source>Choose the operator first.</source>
        <translation>पहले ऑपरेटर चुनें।</translation>
    </message>
    <message>
        <source>The amount must be %1.</source>
        <translation>राशि %1 होनी चाहिए।</translation>
    </message>
    <message>
        <source>Enter the 10-digit mobile number.</source>
        <translation>10 अंकों का मोबाइल नंबर लिखें।</translation>
    </message>
    <message>
        <source>A mobile number has exactly 10 digits.</source>
        <translation>मोबाइल नंबर में ठीक 10 अंक होते हैं।</translation>
    </message>
    <message>
        <source>A mobile number starts with 6, 7, 8 or 9.</source>
        <translation>मोबाइल नंबर 6, 7, 8 या 9 से शुरू होता है।</translation>
    </message>
    <message>
        <source>Choose the DTH operator first.</source>
        <translation>पहले DTH ऑपरेटर चुनें।</translation>
    </message>
    <message>
        <source>Enter the subscriber number: %1.</source>
        <translation>सब्सक्राइबर नंबर लिखें (%1)।</translation>
    </message>
    <message>
        <source>Not a %1 number. Expected: %2.</source>
        <translation>यह %1 का नंबर नहीं है। नंबर ऐसा होना चाहिए: %2</translation>
    </message>
    <message>
        <source>A reference may only use letters, digits, _ and - (at most 64).</source>
        <translation>रेफ़रेंस में सिर्फ़ अंग्रेज़ी अक्षर, अंक, _ और - हो सकते हैं (ज़्यादा से ज़्यादा 64)।</translation>
    </message>
    <message>
        <source>Not an e-mail address (like name@example.com).</source>
        <translation>यह ई-मेल पता नहीं है (जैसे name@example.com)।</translation>
    </message>
    <message>
        <source>This reference was already used for a different sale. Leave it empty or type a new one.</source>
        <translation>यह रेफ़रेंस किसी दूसरी बिक्री में इस्तेमाल हो चुका है। इसे ख़ाली छोड़ें या नया लिखें।</translation>
    </message>
    <message>
        <source>The server did not accept this terminal&apos;s key. Ask the admin to set the terminal up again.</source>
        <translation>सर्वर ने इस टर्मिनल की कुंजी नहीं मानी। एडमिन से टर्मिनल दोबारा सेट करवाएँ।</translation>
    </message>
    <message>
        <source>This terminal&apos;s key may not make this sale (revoked or wrong scope). Ask the admin.</source>
        <translation>इस टर्मिनल की कुंजी से यह बिक्री नहीं हो सकती (कुंजी बंद है या उसके अधिकार अलग हैं)। एडमिन से पूछें।</translation>
    </message>
    <message>
        <source>%1 – %2 for %3</source>
        <translation>%3 के लिए %1 – %2</translation>
    </message>
</context>
<context>
    <name>SaleConfirmPanel</name>
    <message>
        <source>Check with the customer, then confirm</source>
        <translation>ग्राहक से मिलान करें, फिर पक्का करें</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Wallet after</source>
        <translation>वॉलेट में बाद में</translation>
    </message>
    <message>
        <source>Confirm sale (Enter)</source>
        <translation>बिक्री पक्की करें (Enter)</translation>
    </message>
    <message>
        <source>Back (Esc)</source>
        <translation>वापस (Esc)</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>जाँच हो रही है…</translation>
    </message>
    <message>
        <source>unknown (the server did not say)</source>
        <translation>पता नहीं (सर्वर ने नहीं बताया)</translation>
    </message>
    <message>
        <source>Not enough: the wallet has %1 and this sale needs %2. Top up in the back office.</source>
        <translation>पैसे कम हैं: वॉलेट में %1 है और इस बिक्री के लिए %2 चाहिए। बैक ऑफ़िस में टॉप-अप करें।</translation>
    </message>
    <message>
        <source>Sending the sale to the server…</source>
        <translation>बिक्री सर्वर को भेजी जा रही है…</translation>
    </message>
    <message>
        <source>Retry (Enter)</source>
        <translation>फिर से भेजें (Enter)</translation>
    </message>
    <message>
        <source>Collect</source>
        <translation>ग्राहक से लें</translation>
    </message>
    <message>
        <source>Wallet debit</source>
        <translation>वॉलेट से कटौती</translation>
    </message>
    <message>
        <source>Your commission</source>
        <translation>आपका कमीशन</translation>
    </message>
    <message>
        <source>Enter: confirm · F7: Cash / UPI · Esc: back</source>
        <translation>Enter: पक्का करें · F7: नकद / UPI · Esc: वापस</translation>
    </message>
    <message>
        <source>UPI received — confirm sale (Enter)</source>
        <translation>UPI मिल गया — बिक्री पक्की करें (Enter)</translation>
    </message>
</context>
<context>
    <name>SaleFlow</name>
    <message>
        <source>%1
The sale was not confirmed. Retry sends it again safely: if it already went through, the server returns it instead of charging twice.</source>
        <translation>%1
बिक्री पक्की नहीं हुई। &quot;फिर से भेजें&quot; इसे सुरक्षित रूप से दोबारा भेजता है: अगर बिक्री पहले ही हो चुकी है, तो सर्वर दो बार पैसे काटने के बजाय वही बिक्री लौटा देता है।</translation>
    </message>
    <message>
        <source>The wallet cannot cover %1. Top up in the back office.</source>
        <translation>वॉलेट में %1 के लिए पैसे नहीं हैं। बैक ऑफ़िस में टॉप-अप करें।</translation>
    </message>
    <message>
        <source>Wallet has %1 but this sale needs %2; top up in the back office.</source>
        <translation>वॉलेट में %1 है लेकिन इस बिक्री के लिए %2 चाहिए; बैक ऑफ़िस में टॉप-अप करें।</translation>
    </message>
    <message>
        <source>Checking this number&apos;s recent sales…</source>
        <translation>इस नंबर की हाल की बिक्री जाँची जा रही है…</translation>
    </message>
    <message>
        <source>Open a shift first: this shop sells only within a shift. Then confirm again.</source>
        <translation>पहले शिफ़्ट शुरू करें: यह दुकान सिर्फ़ शिफ़्ट के अंदर बेचती है। फिर दोबारा पक्का करें।</translation>
    </message>
    <message>
        <source>No shift is open for you: open a shift, then confirm the sale again.</source>
        <translation>आपकी कोई शिफ़्ट चालू नहीं है: शिफ़्ट शुरू करें, फिर बिक्री दोबारा पक्की करें।</translation>
    </message>
</context>
<context>
    <name>SaleForm</name>
    <message>
        <source>Continue (Enter)</source>
        <translation>आगे बढ़ें (Enter)</translation>
    </message>
</context>
<context>
    <name>SaleHistory</name>
    <message>
        <source>Sold %1 to %2 at %3 — sell again?</source>
        <translation>%2 पर %3 बजे %1 का रिचार्ज हुआ था — फिर से बेचें?</translation>
    </message>
</context>
<context>
    <name>SaleInputs</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Choose the operator.</source>
        <translation>ऑपरेटर चुनें।</translation>
    </message>
    <message>
        <source>Amount (₹)</source>
        <translation>राशि (₹)</translation>
    </message>
    <message>
        <source>Optional: your own bill or order number</source>
        <translation>ज़रूरी नहीं: आपका अपना बिल या ऑर्डर नंबर</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>रेफ़रेंस</translation>
    </message>
    <message>
        <source>Leave empty and the terminal numbers the sale itself.</source>
        <translation>ख़ाली छोड़ें तो टर्मिनल बिक्री को ख़ुद नंबर देगा।</translation>
    </message>
    <message>
        <source>Choose the operator to see its limits.</source>
        <translation>सीमाएँ देखने के लिए ऑपरेटर चुनें।</translation>
    </message>
    <message>
        <source>Whole rupees, e.g. 299</source>
        <translation>पूरे रुपये, जैसे 299</translation>
    </message>
</context>
<context>
    <name>SaleResultPanel</name>
    <message>
        <source>Transaction id</source>
        <translation>ट्रांजैक्शन ID</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>नंबर</translation>
    </message>
    <message>
        <source>Customer e-mail</source>
        <translation>ग्राहक का ई-मेल</translation>
    </message>
    <message>
        <source>Bill amount</source>
        <translation>बिल राशि</translation>
    </message>
    <message>
        <source>Date and time (IST)</source>
        <translation>तारीख और समय (IST)</translation>
    </message>
    <message>
        <source>Reference id</source>
        <translation>रेफ़रेंस ID</translation>
    </message>
    <message>
        <source>Redeem code — give this to the customer</source>
        <translation>रिडीम कोड — यह ग्राहक को दें</translation>
    </message>
    <message>
        <source>Copy code</source>
        <translation>कोड कॉपी करें</translation>
    </message>
    <message>
        <source>58 mm paper</source>
        <translation>58 mm कागज़</translation>
    </message>
    <message>
        <source>80 mm paper</source>
        <translation>80 mm कागज़</translation>
    </message>
    <message>
        <source>Print receipt (Ctrl+P)</source>
        <translation>रसीद प्रिंट करें (Ctrl+P)</translation>
    </message>
    <message>
        <source>Save PDF</source>
        <translation>PDF सेव करें</translation>
    </message>
    <message>
        <source>Reprint (duplicate)</source>
        <translation>दोबारा प्रिंट (डुप्लिकेट)</translation>
    </message>
    <message>
        <source>New sale (Ctrl+N)</source>
        <translation>नई बिक्री (Ctrl+N)</translation>
    </message>
    <message>
        <source>No code: the sale failed</source>
        <translation>कोई कोड नहीं: बिक्री असफल रही</translation>
    </message>
    <message>
        <source>The code appears when the sale succeeds</source>
        <translation>बिक्री सफल होने पर कोड यहाँ दिखेगा</translation>
    </message>
    <message numerus="yes">
        <source>This screen updates itself when the operator answers (next check in %n s).</source>
        <translation>
            <numerusform>ऑपरेटर का जवाब आते ही यह स्क्रीन अपने-आप बदल जाएगी (अगली जाँच %n सेकंड में)।</numerusform>
            <numerusform>ऑपरेटर का जवाब आते ही यह स्क्रीन अपने-आप बदल जाएगी (अगली जाँच %n सेकंड में)।</numerusform>
        </translation>
    </message>
    <message>
        <source>Receipt saved to %1</source>
        <translation>रसीद %1 में सेव हो गई</translation>
    </message>
    <message>
        <source>Code copied: paste it into the customer&apos;s message.</source>
        <translation>कोड कॉपी हो गया: इसे ग्राहक के मैसेज में पेस्ट करें।</translation>
    </message>
    <message>
        <source>Reprint receipt</source>
        <translation>रसीद दोबारा प्रिंट करें</translation>
    </message>
    <message>
        <source>Print receipt</source>
        <translation>रसीद प्रिंट करें</translation>
    </message>
    <message>
        <source>Duplicate receipt sent to the printer.</source>
        <translation>डुप्लिकेट रसीद प्रिंटर पर भेज दी गई।</translation>
    </message>
    <message>
        <source>Receipt sent to the printer.</source>
        <translation>रसीद प्रिंटर पर भेज दी गई।</translation>
    </message>
    <message>
        <source>The printer could not start. Check it is on and has paper.</source>
        <translation>प्रिंटर शुरू नहीं हो सका। देखें कि वह चालू है और उसमें कागज़ है।</translation>
    </message>
    <message>
        <source>Save receipt as PDF</source>
        <translation>रसीद PDF में सेव करें</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF फ़ाइलें (*.pdf)</translation>
    </message>
    <message>
        <source>Server offline — the sale is safe; its status will update here when the server is back.</source>
        <translation>सर्वर ऑफ़लाइन — बिक्री सुरक्षित है; सर्वर वापस आने पर इसकी स्थिति यहाँ अपडेट हो जाएगी।</translation>
    </message>
    <message>
        <source>Wallet debit</source>
        <translation>वॉलेट से कटौती</translation>
    </message>
    <message>
        <source>Your commission</source>
        <translation>आपका कमीशन</translation>
    </message>
    <message>
        <source>Shop copy (with commission)</source>
        <translation>दुकान की कॉपी (कमीशन के साथ)</translation>
    </message>
    <message>
        <source>Enter is paused for a moment, so an extra press cannot start another sale.</source>
        <translation>Enter कुछ पल के लिए रुका है, ताकि ग़लती से दोबारा दबाने पर नई बिक्री शुरू न हो।</translation>
    </message>
    <message>
        <source>none</source>
        <translation>कुछ नहीं</translation>
    </message>
    <message>
        <source>%1, refunded</source>
        <translation>%1, रिफ़ंड हुए</translation>
    </message>
    <message>
        <source>Not recharged — nothing to pay</source>
        <translation>रिचार्ज नहीं हुआ — कोई भुगतान नहीं</translation>
    </message>
    <message>
        <source>Take no money for this sale: the wallet debit was refunded. Check the number and the operator with the customer, then sell again.</source>
        <translation>इस बिक्री के लिए कोई पैसा न लें: वॉलेट से कटी राशि रिफ़ंड हो गई है। ग्राहक से नंबर और ऑपरेटर मिलाएँ, फिर दोबारा बेचें।</translation>
    </message>
    <message>
        <source>Collect %1 from the customer</source>
        <translation>ग्राहक से %1 लें</translation>
    </message>
    <message>
        <source>The operator has not answered yet. Collect the amount and ask the customer to wait; this screen updates itself. Print the receipt once it succeeds. If it fails, the wallet is refunded and you give the money back.</source>
        <translation>ऑपरेटर ने अभी जवाब नहीं दिया है। राशि ले लें और ग्राहक से रुकने को कहें; यह स्क्रीन अपने-आप बदल जाएगी। सफल होने पर रसीद प्रिंट करें। असफल होने पर वॉलेट में रिफ़ंड हो जाता है और आप पैसे लौटा दें।</translation>
    </message>
    <message>
        <source>Shop copy, as it prints:</source>
        <translation>दुकान की कॉपी, जैसी छपेगी:</translation>
    </message>
    <message>
        <source>Customer&apos;s receipt, as it prints:</source>
        <translation>ग्राहक की रसीद, जैसी छपेगी:</translation>
    </message>
    <message>
        <source>Give %1 back to the customer</source>
        <translation>ग्राहक को %1 वापस दें</translation>
    </message>
    <message>
        <source>The operator failed the sale after you collected the money: give the customer back the %1 they paid. The wallet debit was refunded.</source>
        <translation>आपके पैसे लेने के बाद ऑपरेटर ने बिक्री असफल कर दी: ग्राहक ने जो %1 दिए थे, वे उन्हें वापस दें। वॉलेट से कटी राशि रिफ़ंड हो गई है।</translation>
    </message>
    <message>
        <source>Refund %1 by UPI to the customer</source>
        <translation>ग्राहक को %1 UPI से वापस भेजें</translation>
    </message>
    <message>
        <source>The sale failed after the customer paid by UPI: send the %1 back to the customer from the shop&apos;s UPI app. The wallet debit was refunded.</source>
        <translation>ग्राहक के UPI से भुगतान के बाद बिक्री असफल हुई: दुकान के UPI ऐप से %1 ग्राहक को वापस भेजें। वॉलेट से कटी राशि रिफ़ंड हो गई है।</translation>
    </message>
    <message>
        <source>Give back the %1 the customer handed over: the sale failed and the wallet debit was refunded. Check the number and the operator with the customer, then sell again.</source>
        <translation>ग्राहक ने जो %1 दिए थे, वे लौटा दें: बिक्री असफल हुई और वॉलेट से कटी राशि रिफ़ंड हो गई है। ग्राहक से नंबर और ऑपरेटर मिलाएँ, फिर दोबारा बेचें।</translation>
    </message>
    <message>
        <source>Paid %1 by UPI</source>
        <translation>UPI से %1 का भुगतान हुआ</translation>
    </message>
    <message>
        <source>The operator has not answered yet. Ask the customer to wait; this screen updates itself. Print the receipt once it succeeds. If it fails, the wallet is refunded and you refund the customer by UPI.</source>
        <translation>ऑपरेटर ने अभी जवाब नहीं दिया है। ग्राहक से रुकने को कहें; यह स्क्रीन अपने-आप बदल जाएगी। सफल होने पर रसीद प्रिंट करें। असफल होने पर वॉलेट में रिफ़ंड हो जाता है और आप ग्राहक को UPI से पैसे लौटा दें।</translation>
    </message>
    <message>
        <source>%1 (received %2)</source>
        <translation>%1 (%2 मिले)</translation>
    </message>
</context>
<context>
    <name>SaleTermsCard</name>
    <message>
        <source>Mobile</source>
        <translation>मोबाइल</translation>
    </message>
    <message>
        <source>DTH</source>
        <translation>DTH</translation>
    </message>
    <message>
        <source>Gift voucher</source>
        <translation>गिफ़्ट वाउचर</translation>
    </message>
    <message>
        <source>Save sale &amp;terms</source>
        <translation>बिक्री की शर्तें सेव करें (&amp;T)</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>Sells</source>
        <translation>क्या बेचता है</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>डिफ़ॉल्ट</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>डिस्काउंट</translation>
    </message>
    <message>
        <source>Discount on %1</source>
        <translation>%1 पर डिस्काउंट</translation>
    </message>
    <message>
        <source> seconds</source>
        <translation> सेकंड</translation>
    </message>
    <message>
        <source>Sandbox settle delay</source>
        <translation>सैंडबॉक्स में पूरा होने का समय</translation>
    </message>
    <message>
        <source>Use &amp;default rates</source>
        <translation>डिफ़ॉल्ट दरें भरें (&amp;D)</translation>
    </message>
    <message>
        <source>Sale terms</source>
        <translation>बिक्री की शर्तें</translation>
    </message>
    <message>
        <source>Kept by the server. The discount is the commission the shop earns on each sale (up to 20 %); a change applies to the next sale at every terminal, never to past sales.</source>
        <translation>ये सर्वर पर रखी जाती हैं। डिस्काउंट वह कमीशन है जो दुकान हर बिक्री पर कमाती है (ज़्यादा से ज़्यादा 20 %); बदलाव हर टर्मिनल पर अगली बिक्री से लागू होता है, पुरानी बिक्री पर कभी नहीं।</translation>
    </message>
    <message>
        <source>Test mode only: how long a test sale to a number ending 1111 or 2222 stays PENDING before it settles.</source>
        <translation>सिर्फ़ टेस्ट मोड में: 1111 या 2222 पर ख़त्म होने वाले नंबर की टेस्ट बिक्री पूरी होने से पहले कितनी देर पेंडिंग रहती है।</translation>
    </message>
    <message>
        <source>Default rates filled in; save to use them.</source>
        <translation>डिफ़ॉल्ट दरें भर दी गईं; इन्हें लागू करने के लिए सेव करें।</translation>
    </message>
    <message>
        <source>Nothing to save: no rate or delay changed.</source>
        <translation>सेव करने को कुछ नहीं: न कोई दर बदली, न समय।</translation>
    </message>
    <message>
        <source>Saved. The new settle delay applies to the next test sale.</source>
        <translation>सेव हो गया। पूरा होने का नया समय अगली टेस्ट बिक्री से लागू होगा।</translation>
    </message>
    <message>
        <source>Saved. New rates for %1 apply from the next sale.</source>
        <translation>सेव हो गया। %1 की नई दरें अगली बिक्री से लागू होंगी।</translation>
    </message>
</context>
<context>
    <name>SecretDialog</name>
    <message>
        <source>&amp;Copy</source>
        <translation>कॉपी करें (&amp;C)</translation>
    </message>
    <message>
        <source>Copy this secret now and keep it somewhere safe. You will not see it again: it is shown only this once. If it is lost, make a new one.</source>
        <translation>यह सीक्रेट अभी कॉपी करें और किसी सुरक्षित जगह रखें। यह दोबारा नहीं दिखेगा: इसे सिर्फ़ इसी एक बार दिखाया जाता है। खो जाए तो नया बनाएँ।</translation>
    </message>
    <message>
        <source>I have saved it — &amp;Done</source>
        <translation>मैंने इसे रख लिया — हो गया (&amp;D)</translation>
    </message>
    <message>
        <source>Copied ✓</source>
        <translation>कॉपी हो गया ✓</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>&amp;Save shop settings</source>
        <translation>दुकान की सेटिंग्स सेव करें (&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;terminal settings</source>
        <translation>टर्मिनल की सेटिंग्स सेव करें (&amp;T)</translation>
    </message>
    <message>
        <source>Printed under the name on every receipt</source>
        <translation>हर रसीद पर नाम के नीचे छपता है</translation>
    </message>
    <message>
        <source> seconds</source>
        <translation> सेकंड</translation>
    </message>
    <message>
        <source>Shop name</source>
        <translation>दुकान का नाम</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>पता</translation>
    </message>
    <message>
        <source>Low balance below (₹)</source>
        <translation>कम बैलेंस की सीमा (₹)</translation>
    </message>
    <message>
        <source>Lock when idle after</source>
        <translation>इतनी देर ख़ाली रहने पर लॉक</translation>
    </message>
    <message>
        <source>Shop</source>
        <translation>दुकान</translation>
    </message>
    <message>
        <source>Kept by the server; every terminal of the shop uses them.</source>
        <translation>ये सर्वर पर रखी जाती हैं; दुकान के सभी टर्मिनल इन्हें इस्तेमाल करते हैं।</translation>
    </message>
    <message>
        <source>127.0.0.1:0 (this computer only, any free port)</source>
        <translation>127.0.0.1:0 (सिर्फ़ यह कंप्यूटर, कोई भी ख़ाली पोर्ट)</translation>
    </message>
    <message>
        <source>Default: rechargedesk.db in the data folder</source>
        <translation>डिफ़ॉल्ट: डेटा फ़ोल्डर में rechargedesk.db</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>चुनें (&amp;B)…</translation>
    </message>
    <message>
        <source>Server listens on</source>
        <translation>सर्वर का पता</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>डेटाबेस</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>भाषा (Language)</translation>
    </message>
    <message>
        <source>Stored in %1 and used the next time RechargeDesk starts. Use 0.0.0.0:8080 to let other terminals of the shop connect; a database can be a file or a postgres:// URL. The language changes this terminal&apos;s screens and receipts; messages from the server stay in English.</source>
        <translation>ये %1 में रखी जाती हैं और RechargeDesk के अगली बार शुरू होने पर लागू होती हैं। दुकान के दूसरे टर्मिनलों को जुड़ने देने के लिए 0.0.0.0:8080 लिखें; डेटाबेस कोई फ़ाइल या postgres:// URL हो सकता है। भाषा इस टर्मिनल की स्क्रीन और रसीदों पर लागू होती है; सर्वर के संदेश अंग्रेज़ी में ही रहते हैं।</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>सेटिंग्स</translation>
    </message>
    <message>
        <source>Enter the shop&apos;s name; it is printed on every receipt.</source>
        <translation>दुकान का नाम लिखें; यह हर रसीद पर छपता है।</translation>
    </message>
    <message>
        <source>Saved. Receipts now show &quot;%1&quot;.</source>
        <translation>सेव हो गया। अब रसीदों पर &quot;%1&quot; छपेगा।</translation>
    </message>
    <message>
        <source>A database URL must look like postgres://user:password@host:5432/rechargedesk.</source>
        <translation>डेटाबेस URL ऐसा होना चाहिए: postgres://user:password@host:5432/rechargedesk</translation>
    </message>
    <message>
        <source>Give the full path of the database file, e.g. /var/lib/rechargedesk/rechargedesk.db.</source>
        <translation>डेटाबेस फ़ाइल का पूरा पाथ लिखें, जैसे /var/lib/rechargedesk/rechargedesk.db</translation>
    </message>
    <message>
        <source>That is a folder; give the path of the database file inside it.</source>
        <translation>यह एक फ़ोल्डर है; इसके अंदर की डेटाबेस फ़ाइल का पाथ लिखें।</translation>
    </message>
    <message>
        <source>Could not write %1. Check that the folder is writable.</source>
        <translation>फ़ाइल %1 नहीं लिखी जा सकी। देखें कि फ़ोल्डर में लिखने की अनुमति है।</translation>
    </message>
    <message>
        <source>Saved. Restart RechargeDesk for these to take effect.</source>
        <translation>सेव हो गया। इन्हें लागू करने के लिए RechargeDesk दोबारा शुरू करें।</translation>
    </message>
    <message>
        <source>Database file</source>
        <translation>डेटाबेस फ़ाइल</translation>
    </message>
    <message>
        <source>SQLite databases (*.db *.sqlite);;All files (*)</source>
        <translation>SQLite डेटाबेस (*.db *.sqlite);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>Not set</source>
        <translation>सेट नहीं</translation>
    </message>
    <message>
        <source>The Plans screen opens on this circle</source>
        <translation>प्लान स्क्रीन इसी सर्कल पर खुलती है</translation>
    </message>
    <message>
        <source>Shop&apos;s circle</source>
        <translation>दुकान का सर्कल</translation>
    </message>
    <message>
        <source>Connections to the server are encrypted (TLS). Certificate SHA-256 fingerprint, which a terminal asks to confirm on first contact:
%1</source>
        <translation>सर्वर से कनेक्शन एन्क्रिप्टेड हैं (TLS)। प्रमाणपत्र का SHA-256 फ़िंगरप्रिंट, जिसकी पुष्टि टर्मिनल पहले संपर्क पर माँगता है:
%1</translation>
    </message>
    <message>
        <source>Connections to the server are not encrypted: start it with serve --tls so other terminals connect with https://.</source>
        <translation>सर्वर से कनेक्शन एन्क्रिप्टेड नहीं हैं: इसे serve --tls से शुरू करें ताकि दूसरे टर्मिनल https:// से जुड़ें।</translation>
    </message>
    <message>
        <source>Write the address and port as ADDR:PORT, e.g. 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080.</source>
        <translation>पता और पोर्ट ADDR:PORT के रूप में लिखें, जैसे 127.0.0.1:8080, 0.0.0.0:8080 या [::1]:8080।</translation>
    </message>
    <message>
        <source>&amp;General</source>
        <translation>सामान्य (&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Upstreams</source>
        <translation>अपस्ट्रीम (&amp;U)</translation>
    </message>
    <message>
        <source>The shop, this terminal, the sale terms and backups</source>
        <translation>दुकान, यह टर्मिनल, बिक्री की शर्तें और बैकअप</translation>
    </message>
    <message>
        <source>The upstreams live sales go to, and their statements</source>
        <translation>लाइव बिक्री जिन अपस्ट्रीम को जाती है, और उनके स्टेटमेंट</translation>
    </message>
    <message>
        <source>Shifts and cash-up</source>
        <translation>शिफ़्ट और गल्ले का हिसाब</translation>
    </message>
    <message>
        <source>On: each clerk sells within an open shift and counts the drawer at its close</source>
        <translation>चालू: हर क्लर्क चालू शिफ़्ट में बेचता है और शिफ़्ट बंद करते समय गल्ला गिनता है</translation>
    </message>
    <message>
        <source>Blind count: clerks count the drawer without seeing the expected cash</source>
        <translation>बिना देखे गिनती: क्लर्क यह देखे बिना गल्ला गिनते हैं कि उसमें कितना होना चाहिए</translation>
    </message>
    <message>
        <source>UPI ID (VPA)</source>
        <translation>दुकान की UPI ID (VPA)</translation>
    </message>
    <message>
        <source>e.g. sharmamobile@okaxis; empty: no UPI QR</source>
        <translation>जैसे sharmamobile@okaxis; ख़ाली: कोई UPI QR नहीं</translation>
    </message>
    <message>
        <source>Payee name</source>
        <translation>पाने वाले का नाम</translation>
    </message>
    <message>
        <source>The name the customer&apos;s UPI app shows, e.g. Sharma Mobile Point</source>
        <translation>ग्राहक के UPI ऐप में दिखने वाला नाम, जैसे Sharma Mobile Point</translation>
    </message>
    <message>
        <source>Kept on this computer and used at once: the name its shifts are opened under, the cash drawer on its receipt printer, a screen facing the customer, and the UPI QR on UPI receipts.</source>
        <translation>इसी कंप्यूटर पर रखी जाती हैं और तुरंत लागू होती हैं: जिस नाम से यहाँ शिफ़्ट शुरू होती हैं, रसीद प्रिंटर से जुड़ा गल्ला, ग्राहक की ओर वाली स्क्रीन, और UPI रसीदों पर UPI QR।</translation>
    </message>
    <message>
        <source>Terminal name</source>
        <translation>टर्मिनल का नाम</translation>
    </message>
    <message>
        <source>Cash drawer</source>
        <translation>गल्ला (कैश ड्रॉअर)</translation>
    </message>
    <message>
        <source>Off. /dev/usb/lp0, or a raw printer queue&apos;s name</source>
        <translation>बंद। /dev/usb/lp0, या raw प्रिंटर कतार का नाम</translation>
    </message>
    <message>
        <source>Customer display</source>
        <translation>ग्राहक स्क्रीन</translation>
    </message>
    <message>
        <source>A second screen facing the customer: the amount to pay, the UPI QR and the outcome</source>
        <translation>ग्राहक की ओर वाली दूसरी स्क्रीन: भुगतान की राशि, UPI QR और नतीजा</translation>
    </message>
    <message>
        <source>Print the UPI QR on UPI sales&apos; receipts</source>
        <translation>UPI बिक्री की रसीदों पर UPI QR छापें</translation>
    </message>
    <message>
        <source>Save this terminal&apos;s counter</source>
        <translation>इस टर्मिनल की काउंटर सेटिंग्स सेव करें</translation>
    </message>
    <message>
        <source>This terminal: server and language (restart needed)</source>
        <translation>यह टर्मिनल: सर्वर और भाषा (दोबारा शुरू करना ज़रूरी)</translation>
    </message>
    <message>
        <source>This terminal</source>
        <translation>यह टर्मिनल</translation>
    </message>
    <message>
        <source>The UPI ID says where customers&apos; money goes, so only an admin signed in with a PIN (or a live admin key) changes it: this terminal shows it only.</source>
        <translation>UPI ID तय करती है कि ग्राहकों का पैसा कहाँ जाता है, इसलिए इसे सिर्फ़ PIN से साइन इन किया एडमिन (या लाइव एडमिन कुंजी) बदल सकता है: यह टर्मिनल इसे सिर्फ़ दिखाता है।</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a UPI ID. Write it as name@handle, as the shop&apos;s UPI app shows it, e.g. sharmamobile@okaxis: one @, letters, digits, dots, - or _ before it, the bank&apos;s handle after it.</source>
        <translation>&quot;%1&quot; UPI ID नहीं है। इसे name@handle के रूप में लिखें, जैसा दुकान का UPI ऐप दिखाता है, जैसे sharmamobile@okaxis: एक @, उससे पहले अंग्रेज़ी अक्षर, अंक, बिंदु, - या _, और उसके बाद बैंक का हैंडल।</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>बंद</translation>
    </message>
    <message>
        <source>Screen %1: %2 (%3×%4)</source>
        <translation>स्क्रीन %1: %2 (%3×%4)</translation>
    </message>
    <message>
        <source>Screen %1 (not connected now)</source>
        <translation>स्क्रीन %1 (अभी जुड़ी नहीं)</translation>
    </message>
    <message>
        <source>Use letters, digits and spaces for the terminal&apos;s name, e.g. Counter 1.</source>
        <translation>टर्मिनल के नाम में अक्षर, अंक और स्पेस ही लिखें, जैसे काउंटर 1।</translation>
    </message>
    <message>
        <source>Saved. Shifts opened here are on &quot;%1&quot;; a change of the customer display shows at the next start.</source>
        <translation>सेव हो गया। यहाँ शुरू होने वाली शिफ़्ट &quot;%1&quot; के नाम से होंगी; ग्राहक स्क्रीन का बदलाव अगली बार शुरू करने पर दिखेगा।</translation>
    </message>
    <message>
        <source>Complaint deadline (hours)</source>
        <translation>शिकायत की समय-सीमा (घंटे)</translation>
    </message>
    <message>
        <source>1 to 720: a complaint unresolved this long is past its deadline</source>
        <translation>1 से 720: इतनी देर में न सुलझी शिकायत समय-सीमा पार कर जाती है</translation>
    </message>
    <message>
        <source>Enter the complaint deadline as whole hours from %1 to %2 (%2 hours is 30 days); 48 is usual.</source>
        <translation>शिकायत की समय-सीमा पूरे घंटों में %1 से %2 तक लिखें (%2 घंटे = 30 दिन); आम तौर पर 48।</translation>
    </message>
</context>
<context>
    <name>ShiftClosedDialog</name>
    <message>
        <source>Print report (P)</source>
        <translation>रिपोर्ट प्रिंट करें (P)</translation>
    </message>
    <message>
        <source>Open next shift (N)</source>
        <translation>अगली शिफ़्ट शुरू करें (N)</translation>
    </message>
    <message>
        <source>Sign out (S)</source>
        <translation>साइन आउट करें (S)</translation>
    </message>
    <message>
        <source>Shift closed</source>
        <translation>शिफ़्ट बंद हो गई</translation>
    </message>
    <message>
        <source>Counted %1 · expected %2 · %3</source>
        <translation>गिने गए %1 · होने चाहिए थे %2 · %3</translation>
    </message>
</context>
<context>
    <name>ShiftController</name>
    <message>
        <source>Cash in/out (F9)</source>
        <translation>नकद जमा/निकासी (F9)</translation>
    </message>
    <message>
        <source>A sale needs an open shift.</source>
        <translation>बिक्री के लिए चालू शिफ़्ट चाहिए।</translation>
    </message>
    <message>
        <source>This shop sells within shifts.</source>
        <translation>यह दुकान शिफ़्ट में ही बेचती है।</translation>
    </message>
    <message>
        <source>No shift open</source>
        <translation>कोई शिफ़्ट चालू नहीं</translation>
    </message>
    <message>
        <source>Close shift (F10)</source>
        <translation>शिफ़्ट बंद करें (F10)</translation>
    </message>
    <message>
        <source>Open shift (F10)</source>
        <translation>शिफ़्ट शुरू करें (F10)</translation>
    </message>
</context>
<context>
    <name>ShiftListModel</name>
    <message>
        <source>Counted less cash than expected</source>
        <translation>जितना होना चाहिए था, उससे कम नकद गिना गया</translation>
    </message>
    <message>
        <source>Counted more cash than expected</source>
        <translation>जितना होना चाहिए था, उससे ज़्यादा नकद गिना गया</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>टर्मिनल</translation>
    </message>
    <message>
        <source>Clerk</source>
        <translation>क्लर्क</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>शुरू</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>बंद</translation>
    </message>
    <message>
        <source>Opening cash</source>
        <translation>शुरुआती नकद</translation>
    </message>
    <message>
        <source>Cash sales</source>
        <translation>नकद बिक्री</translation>
    </message>
    <message>
        <source>UPI sales</source>
        <translation>UPI बिक्री</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>अपेक्षित</translation>
    </message>
    <message>
        <source>Counted</source>
        <translation>गिना गया</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>अंतर</translation>
    </message>
</context>
<context>
    <name>ShiftReportPrint</name>
    <message>
        <source>Shift %1</source>
        <translation>शिफ़्ट %1</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>टर्मिनल</translation>
    </message>
    <message>
        <source>Clerk</source>
        <translation>क्लर्क</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>शुरू हुई</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>बंद हुई</translation>
    </message>
    <message>
        <source>Still open</source>
        <translation>अभी चालू</translation>
    </message>
    <message>
        <source>Sales by tender</source>
        <translation>भुगतान के तरीके से बिक्री</translation>
    </message>
    <message>
        <source>Payment</source>
        <translation>भुगतान</translation>
    </message>
    <message>
        <source>Sales</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>Cash drawer</source>
        <translation>गल्ला</translation>
    </message>
    <message>
        <source>Opening cash</source>
        <translation>शुरुआती नकद</translation>
    </message>
    <message>
        <source>Cash sales</source>
        <translation>नकद बिक्री</translation>
    </message>
    <message>
        <source>Cash refunds (%1)</source>
        <translation>नकद वापसी (%1)</translation>
    </message>
    <message>
        <source>Cash in</source>
        <translation>नकद जमा</translation>
    </message>
    <message>
        <source>Cash out</source>
        <translation>नकद निकासी</translation>
    </message>
    <message>
        <source>Expected cash</source>
        <translation>अपेक्षित नकद</translation>
    </message>
    <message>
        <source>Hidden (blind count)</source>
        <translation>छिपा है (बिना देखे गिनती)</translation>
    </message>
    <message>
        <source>Counted cash</source>
        <translation>गिना गया नकद</translation>
    </message>
    <message>
        <source>Not counted yet</source>
        <translation>अभी गिना नहीं गया</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>अंतर</translation>
    </message>
    <message>
        <source>Cash in and out</source>
        <translation>नकद जमा और निकासी</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>समय</translation>
    </message>
    <message>
        <source>Cash</source>
        <translation>नकद</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>कारण</translation>
    </message>
    <message>
        <source>By</source>
        <translation>किसने</translation>
    </message>
    <message>
        <source>None.</source>
        <translation>कोई नहीं।</translation>
    </message>
    <message>
        <source>Counted by denomination</source>
        <translation>नोटों के हिसाब से गिनती</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>नोट</translation>
    </message>
    <message>
        <source>₹%1 × %2</source>
        <translation>₹%1 × %2</translation>
    </message>
    <message>
        <source>Coins</source>
        <translation>सिक्के</translation>
    </message>
    <message>
        <source>UPI to return</source>
        <translation>UPI से लौटाने हैं</translation>
    </message>
    <message>
        <source>Sale</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>नंबर</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Send back by UPI</source>
        <translation>UPI से वापस भेजें</translation>
    </message>
    <message>
        <source>Closed by</source>
        <translation>किसने बंद की</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>नोट</translation>
    </message>
    <message>
        <source>TEST MODE</source>
        <translation>टेस्ट मोड</translation>
    </message>
    <message>
        <source>Shift report</source>
        <translation>शिफ़्ट रिपोर्ट</translation>
    </message>
    <message>
        <source>Still open — not counted</source>
        <translation>अभी चालू — गिनती नहीं हुई</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>फ़ाइल %1 नहीं लिखी जा सकती।</translation>
    </message>
    <message>
        <source>Print the shift report</source>
        <translation>शिफ़्ट रिपोर्ट प्रिंट करें</translation>
    </message>
</context>
<context>
    <name>ShiftWording</name>
    <message>
        <source>Short %1</source>
        <translation>%1 कम</translation>
    </message>
    <message>
        <source>Over %1</source>
        <translation>%1 ज़्यादा</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>चालू</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>बंद</translation>
    </message>
    <message>
        <source>Cash</source>
        <translation>नकद</translation>
    </message>
    <message>
        <source>UPI</source>
        <translation>UPI</translation>
    </message>
    <message>
        <source>Not recorded</source>
        <translation>दर्ज नहीं</translation>
    </message>
    <message>
        <source>In</source>
        <translation>जमा</translation>
    </message>
    <message>
        <source>Out</source>
        <translation>निकासी</translation>
    </message>
</context>
<context>
    <name>ShiftWords</name>
    <message>
        <source>Opened %1 with %2</source>
        <translation>%1 बजे %2 के साथ शुरू</translation>
    </message>
    <message>
        <source>cash sales %1 (%2)</source>
        <translation>नकद बिक्री %1 (%2)</translation>
    </message>
    <message>
        <source>UPI %1 (%2)</source>
        <translation>UPI बिक्री %1 (%2)</translation>
    </message>
    <message>
        <source>no tender recorded %1 (%2)</source>
        <translation>भुगतान का तरीका दर्ज नहीं %1 (%2)</translation>
    </message>
    <message>
        <source>cash given back %1 (%2)</source>
        <translation>नकद वापस दिए %1 (%2)</translation>
    </message>
    <message>
        <source>cash in %1</source>
        <translation>नकद जमा %1</translation>
    </message>
    <message>
        <source>cash out %1</source>
        <translation>नकद निकासी %1</translation>
    </message>
    <message>
        <source>Shift: %1 since %2 (%3)</source>
        <translation>शिफ़्ट: %1, %2 से (%3)</translation>
    </message>
</context>
<context>
    <name>ShiftsCsv</name>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 नहीं लिखी जा सकी: %2</translation>
    </message>
</context>
<context>
    <name>ShiftsPage</name>
    <message>
        <source>Refresh (F5)</source>
        <translation>रीफ़्रेश (F5)</translation>
    </message>
    <message>
        <source>E&amp;xport CSV…</source>
        <translation>CSV एक्सपोर्ट करें (&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Print report…</source>
        <translation>रिपोर्ट प्रिंट करें (&amp;P)…</translation>
    </message>
    <message>
        <source>Save P&amp;DF…</source>
        <translation>PDF सेव करें (&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Close shift…</source>
        <translation>शिफ़्ट बंद करें (&amp;C)…</translation>
    </message>
    <message>
        <source>All clerks</source>
        <translation>सभी क्लर्क</translation>
    </message>
    <message>
        <source>All terminals</source>
        <translation>सभी टर्मिनल</translation>
    </message>
    <message>
        <source>Any state</source>
        <translation>कोई भी स्थिति</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>चालू</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>बंद</translation>
    </message>
    <message>
        <source>Reload the shifts (F5 or Ctrl+R)</source>
        <translation>शिफ़्ट दोबारा लोड करें (F5 या Ctrl+R)</translation>
    </message>
    <message>
        <source>Save the shifts listed as a CSV file</source>
        <translation>सूची की शिफ़्ट CSV फ़ाइल में सेव करें</translation>
    </message>
    <message>
        <source>&amp;Date</source>
        <translation>तारीख (&amp;D)</translation>
    </message>
    <message>
        <source>Cl&amp;erk</source>
        <translation>क्लर्क (&amp;E)</translation>
    </message>
    <message>
        <source>Ter&amp;minal</source>
        <translation>टर्मिनल (&amp;M)</translation>
    </message>
    <message>
        <source>&amp;State</source>
        <translation>स्थिति (&amp;S)</translation>
    </message>
    <message>
        <source>Shifts</source>
        <translation>शिफ़्ट</translation>
    </message>
    <message>
        <source>The shift report for the receipt printer, previewed first</source>
        <translation>रसीद प्रिंटर के लिए शिफ़्ट रिपोर्ट, पहले प्रीव्यू के साथ</translation>
    </message>
    <message>
        <source>The shift report as a PDF file, on receipt paper</source>
        <translation>शिफ़्ट रिपोर्ट PDF फ़ाइल के रूप में, रसीद के कागज़ के नाप पर</translation>
    </message>
    <message>
        <source>Count this shift&apos;s drawer and close it, with a note</source>
        <translation>इस शिफ़्ट का गल्ला गिनें और नोट के साथ इसे बंद करें</translation>
    </message>
    <message>
        <source>Could not load the shifts: %1</source>
        <translation>शिफ़्ट लोड नहीं हो सकीं: %1</translation>
    </message>
    <message>
        <source>Loading the shifts of %1…</source>
        <translation>%1 की शिफ़्ट लोड हो रही हैं…</translation>
    </message>
    <message>
        <source>Shifts: %1</source>
        <translation>शिफ़्ट: %1</translation>
    </message>
    <message>
        <source>open: %1</source>
        <translation>चालू: %1</translation>
    </message>
    <message>
        <source>short: %1, %2 in all</source>
        <translation>कम: %1, कुल %2</translation>
    </message>
    <message>
        <source>over: %1, %2 in all</source>
        <translation>ज़्यादा: %1, कुल %2</translation>
    </message>
    <message>
        <source>No shifts opened on %1.</source>
        <translation>%1 को कोई शिफ़्ट शुरू नहीं हुई।</translation>
    </message>
    <message>
        <source>No shift chosen</source>
        <translation>कोई शिफ़्ट नहीं चुनी गई</translation>
    </message>
    <message>
        <source>Choose a shift in the list to see its sales by tender, cash in and out, count and difference.</source>
        <translation>भुगतान के तरीके से बिक्री, नकद जमा और निकासी, गिनती और अंतर देखने के लिए सूची में से कोई शिफ़्ट चुनें।</translation>
    </message>
    <message>
        <source>Shift %1 · %2 · %3 · %4</source>
        <translation>शिफ़्ट %1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>Still open: the figures are as they stand now.</source>
        <translation>अभी चालू है: आँकड़े इस समय तक के हैं।</translation>
    </message>
    <message>
        <source>The shift report was sent to the printer.</source>
        <translation>शिफ़्ट रिपोर्ट प्रिंटर पर भेज दी गई।</translation>
    </message>
    <message>
        <source>The printer could not start. Check that it is switched on and has paper.</source>
        <translation>प्रिंटर शुरू नहीं हो सका। देखें कि वह चालू है और उसमें कागज़ है।</translation>
    </message>
    <message>
        <source>Save the shift report as PDF</source>
        <translation>शिफ़्ट रिपोर्ट PDF में सेव करें</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF फ़ाइलें (*.pdf)</translation>
    </message>
    <message>
        <source>Shift report saved to %1</source>
        <translation>शिफ़्ट रिपोर्ट %1 में सेव हो गई</translation>
    </message>
    <message>
        <source>Shift %1 of %2 is closed. Difference: %3.</source>
        <translation>%2 की शिफ़्ट %1 बंद हो गई। अंतर: %3।</translation>
    </message>
    <message>
        <source>Export the shifts as CSV</source>
        <translation>शिफ़्ट CSV में एक्सपोर्ट करें</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV फ़ाइलें (*.csv)</translation>
    </message>
    <message>
        <source>The shifts listed (%1) are saved in %2.</source>
        <translation>सूची की शिफ़्ट (%1) %2 में सेव हो गईं।</translation>
    </message>
</context>
<context>
    <name>ShopDetailPane</name>
    <message>
        <source>&amp;Top up…</source>
        <translation>टॉप-अप करें (&amp;T)…</translation>
    </message>
    <message>
        <source>Credit &amp;limit…</source>
        <translation>उधार सीमा (&amp;L)…</translation>
    </message>
    <message>
        <source>&amp;Margins…</source>
        <translation>मार्जिन (&amp;M)…</translation>
    </message>
    <message>
        <source>S&amp;uspend…</source>
        <translation>रोकें (&amp;U)…</translation>
    </message>
    <message>
        <source>&amp;Keys…</source>
        <translation>कुंजियाँ (&amp;K)…</translation>
    </message>
    <message>
        <source>Stat&amp;ement…</source>
        <translation>स्टेटमेंट (&amp;E)…</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>बैलेंस</translation>
    </message>
    <message>
        <source>Credit limit</source>
        <translation>उधार सीमा</translation>
    </message>
    <message>
        <source>May still spend</source>
        <translation>ख़र्च के लिए बाक़ी</translation>
    </message>
    <message>
        <source>Sales today</source>
        <translation>आज की बिक्री</translation>
    </message>
    <message>
        <source>Success today</source>
        <translation>आज की सफलता</translation>
    </message>
    <message>
        <source>Last contact</source>
        <translation>आख़िरी संपर्क</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>मालिक</translation>
    </message>
    <message>
        <source>Mobile</source>
        <translation>मोबाइल</translation>
    </message>
    <message>
        <source>Circle</source>
        <translation>सर्कल</translation>
    </message>
    <message>
        <source>GSTIN</source>
        <translation>GSTIN</translation>
    </message>
    <message>
        <source>No shop selected</source>
        <translation>कोई दुकान नहीं चुनी गई</translation>
    </message>
    <message>
        <source>SUSPENDED — its keys are refused.</source>
        <translation>रोकी गई — इसकी कुंजियाँ नहीं चलतीं।</translation>
    </message>
    <message>
        <source>SUSPENDED — its keys are refused. Reason: %1</source>
        <translation>रोकी गई — इसकी कुंजियाँ नहीं चलतीं। कारण: %1</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>फिर चालू करें (&amp;U)</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>सक्रिय</translation>
    </message>
    <message>
        <source>none</source>
        <translation>नहीं है</translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation>%1 फिर चालू करें</translation>
    </message>
    <message>
        <source>Let %1&apos;s keys work again? Its sales start at once.</source>
        <translation>%1 की कुंजियाँ फिर से चालू करें? इसकी बिक्री तुरंत शुरू हो जाएगी।</translation>
    </message>
    <message>
        <source>Suspend %1</source>
        <translation>%1 को रोकें</translation>
    </message>
    <message>
        <source>Every call of %1&apos;s keys is refused from now on, until you resume it. Its pending sales still settle, it can still see its sales and wallet and ask for a top-up.</source>
        <translation>अब से %1 की कुंजियों से कुछ भी नहीं चलेगा, जब तक आप इसे फिर चालू न करें। इसकी पेंडिंग बिक्री फिर भी पूरी होंगी, और यह अपनी बिक्री और वॉलेट देख सकती है और टॉप-अप माँग सकती है।</translation>
    </message>
    <message>
        <source>&amp;Suspend</source>
        <translation>रोकें (&amp;S)</translation>
    </message>
</context>
<context>
    <name>ShopKeyReveal</name>
    <message>
        <source>Key for %1</source>
        <translation>%1 की कुंजी</translation>
    </message>
    <message>
        <source>%1 · key %2 · %3 · %4</source>
        <translation>%1 · कुंजी %2 · %3 · %4</translation>
    </message>
    <message>
        <source>live</source>
        <translation>लाइव</translation>
    </message>
    <message>
        <source>test</source>
        <translation>टेस्ट</translation>
    </message>
    <message>
        <source>Key secret</source>
        <translation>कुंजी का सीक्रेट</translation>
    </message>
    <message>
        <source>On the shop&apos;s computer, run these lines (they connect it to this server; pass them on as privately as the secret):</source>
        <translation>दुकान के कंप्यूटर पर ये कमांड चलाएँ (ये उसे इस सर्वर से जोड़ती हैं; इन्हें भी सीक्रेट की तरह गुप्त रखकर ही आगे दें):</translation>
    </message>
    <message>
        <source>Copy the &amp;lines</source>
        <translation>कमांड कॉपी करें (&amp;L)</translation>
    </message>
    <message>
        <source>Lines copied ✓</source>
        <translation>कमांड कॉपी हो गईं ✓</translation>
    </message>
</context>
<context>
    <name>ShopKeysDialog</name>
    <message>
        <source>New key for %1</source>
        <translation>%1 के लिए नई कुंजी</translation>
    </message>
    <message>
        <source>&amp;Make key</source>
        <translation>कुंजी बनाएँ (&amp;M)</translation>
    </message>
    <message>
        <source>%1 counter</source>
        <translation>%1 काउंटर</translation>
    </message>
    <message>
        <source>Live — real recharges</source>
        <translation>लाइव — असली रिचार्ज</translation>
    </message>
    <message>
        <source>Test — the sandbox</source>
        <translation>टेस्ट — सैंडबॉक्स</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>नाम (&amp;N)</translation>
    </message>
    <message>
        <source>M&amp;ode</source>
        <translation>मोड (&amp;O)</translation>
    </message>
    <message>
        <source>Name the key, e.g. the counter it is for.</source>
        <translation>कुंजी का नाम दें, जैसे जिस काउंटर के लिए है उसका नाम।</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>नाम</translation>
    </message>
    <message>
        <source>Key id</source>
        <translation>कुंजी ID</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>मोड</translation>
    </message>
    <message>
        <source>Made (IST)</source>
        <translation>बनी (IST)</translation>
    </message>
    <message>
        <source>State</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>&amp;New key…</source>
        <translation>नई कुंजी (&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Rotate…</source>
        <translation>कुंजी बदलें (&amp;R)…</translation>
    </message>
    <message>
        <source>Re&amp;voke…</source>
        <translation>कुंजी बंद करें (&amp;V)…</translation>
    </message>
    <message>
        <source>Keys of %1</source>
        <translation>%1 की कुंजियाँ</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>बंद करें (&amp;C)</translation>
    </message>
    <message>
        <source>The keys %1&apos;s RechargeDesk uses to reach this server. Rotating makes a new key and stops the old one at once: give the shop the new secret first.</source>
        <translation>वे कुंजियाँ जिनसे %1 का RechargeDesk इस सर्वर तक पहुँचता है। कुंजी बदलने पर नई कुंजी बनती है और पुरानी तुरंत बंद हो जाती है: पहले दुकान को नया सीक्रेट दें।</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>लाइव</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>टेस्ट</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>%1 को बंद की गई</translation>
    </message>
    <message>
        <source>Works</source>
        <translation>चालू</translation>
    </message>
    <message>
        <source>Rotate key</source>
        <translation>कुंजी बदलें</translation>
    </message>
    <message>
        <source>Make a new key for %1 in place of %2? The old key stops working at once.</source>
        <translation>%2 की जगह %1 के लिए नई कुंजी बनाएँ? पुरानी कुंजी तुरंत काम करना बंद कर देगी।</translation>
    </message>
    <message>
        <source>&amp;Rotate</source>
        <translation>बदलें (&amp;R)</translation>
    </message>
    <message>
        <source>Revoke key</source>
        <translation>कुंजी बंद करें</translation>
    </message>
    <message>
        <source>Revoke %1 of %2? Every call with it is refused from now on.</source>
        <translation>%2 की कुंजी %1 बंद करें? अब से इस कुंजी से कुछ भी नहीं चलेगा।</translation>
    </message>
    <message>
        <source>Re&amp;voke</source>
        <translation>बंद करें (&amp;V)</translation>
    </message>
</context>
<context>
    <name>ShopListModel</name>
    <message>
        <source>Shop</source>
        <translation>दुकान</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>मालिक</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>बैलेंस</translation>
    </message>
    <message>
        <source>Credit limit</source>
        <translation>उधार सीमा</translation>
    </message>
    <message>
        <source>Today&apos;s sales</source>
        <translation>आज की बिक्री</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>सफल</translation>
    </message>
    <message>
        <source>Last contact</source>
        <translation>आख़िरी संपर्क</translation>
    </message>
    <message>
        <source>State</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>Suspended</source>
        <translation>रोकी गई</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>सक्रिय</translation>
    </message>
    <message>
        <source>never</source>
        <translation>कभी नहीं</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>ShopListPane</name>
    <message>
        <source>A&amp;dd shop…</source>
        <translation>दुकान जोड़ें (&amp;D)…</translation>
    </message>
    <message>
        <source>Name, owner, mobile or GSTIN</source>
        <translation>नाम, मालिक, मोबाइल या GSTIN</translation>
    </message>
    <message>
        <source>All shops</source>
        <translation>सभी दुकानें</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>सक्रिय</translation>
    </message>
    <message>
        <source>Suspended</source>
        <translation>रोकी गईं</translation>
    </message>
    <message>
        <source>Refresh (F5)</source>
        <translation>रीफ़्रेश (F5)</translation>
    </message>
    <message>
        <source>No shops yet</source>
        <translation>अभी कोई दुकान नहीं</translation>
    </message>
    <message>
        <source>A shop is another RechargeDesk that sells through this one. Add it here: it gets its own wallet, which you top up, and a key. The key&apos;s secret is shown once, with the lines the shop runs on its computer to connect (rechargedesk upstream set). From then on its sales go through you, and you see its balance, sales and statement here. A shop that has paid you can ask for a top-up: it appears under Fund requests.</source>
        <translation>दुकान एक दूसरा RechargeDesk है जो इसके ज़रिए बेचता है। इसे यहाँ जोड़ें: इसे अपना वॉलेट मिलता है, जिसे आप टॉप-अप करते हैं, और एक कुंजी। कुंजी का सीक्रेट एक बार दिखता है, साथ में वे कमांड जिन्हें दुकान अपने कंप्यूटर पर चलाकर जुड़ती है (rechargedesk upstream set)। इसके बाद उसकी बिक्री आपके ज़रिए होती है, और आप यहाँ उसका बैलेंस, बिक्री और स्टेटमेंट देखते हैं। जिस दुकान ने आपको पैसे दिए हैं, वह टॉप-अप माँग सकती है: उसकी माँग फ़ंड रिक्वेस्ट में दिखती है।</translation>
    </message>
    <message>
        <source>&amp;Add shop…</source>
        <translation>दुकान जोड़ें (&amp;A)…</translation>
    </message>
    <message>
        <source>Searc&amp;h</source>
        <translation>खोजें (&amp;H)</translation>
    </message>
    <message>
        <source>Sho&amp;w</source>
        <translation>दिखाएँ (&amp;W)</translation>
    </message>
    <message>
        <source>The list cannot be sorted by this column.</source>
        <translation>सूची इस कॉलम से नहीं छाँटी जा सकती।</translation>
    </message>
    <message>
        <source>No shop matches.</source>
        <translation>कोई दुकान मेल नहीं खाती।</translation>
    </message>
    <message>
        <source>%1 shops shown; scroll down for more.</source>
        <translation>%1 दुकानें दिख रही हैं; और देखने के लिए नीचे स्क्रॉल करें।</translation>
    </message>
    <message>
        <source>1 shop.</source>
        <translation>1 दुकान।</translation>
    </message>
    <message>
        <source>%1 shops.</source>
        <translation>%1 दुकानें।</translation>
    </message>
    <message>
        <source>This terminal&apos;s server account is a shop of a distributor: its shops are kept there.</source>
        <translation>इस टर्मिनल का सर्वर ख़ुद किसी डिस्ट्रीब्यूटर की दुकान है: दुकानें उस डिस्ट्रीब्यूटर के यहाँ रखी जाती हैं।</translation>
    </message>
    <message>
        <source>The shops could not be loaded: %1</source>
        <translation>दुकानें लोड नहीं हो सकीं: %1</translation>
    </message>
</context>
<context>
    <name>ShopsPage</name>
    <message>
        <source>Sh&amp;ops</source>
        <translation>दुकानें (&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fund requests</source>
        <translation>फ़ंड रिक्वेस्ट (&amp;F)</translation>
    </message>
    <message>
        <source>Shops</source>
        <translation>दुकानें</translation>
    </message>
</context>
<context>
    <name>SignInPage</name>
    <message>
        <source>Sign in</source>
        <translation>साइन इन करें</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>आपका नाम</translation>
    </message>
    <message>
        <source>PIN</source>
        <translation>PIN</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>नाम</translation>
    </message>
    <message>
        <source>Locked — enter your PIN to continue</source>
        <translation>लॉक है — अपना PIN डालें</translation>
    </message>
    <message>
        <source>Enter your name.</source>
        <translation>अपना नाम लिखें।</translation>
    </message>
    <message>
        <source>Enter your PIN (4 to 8 digits).</source>
        <translation>अपना PIN डालें (4 से 8 अंक)।</translation>
    </message>
</context>
<context>
    <name>SlipFile</name>
    <message>
        <source>%1 is not a file that can be read.</source>
        <translation>%1 ऐसी फ़ाइल नहीं है जिसे पढ़ा जा सके।</translation>
    </message>
    <message>
        <source>%1 is %2: a slip photo may be at most 1 MiB. Take a smaller photo or crop it.</source>
        <translation>%1 का साइज़ %2 है: पर्ची की फ़ोटो ज़्यादा से ज़्यादा 1 MiB हो सकती है। छोटी फ़ोटो लें या उसे क्रॉप करें।</translation>
    </message>
    <message>
        <source>%1 could not be read: %2</source>
        <translation>%1 पढ़ी नहीं जा सकी: %2</translation>
    </message>
    <message>
        <source>%1 is not a PNG or JPEG photo. Choose a photo of the slip (PNG or JPEG).</source>
        <translation>%1 PNG या JPEG फ़ोटो नहीं है। पर्ची की फ़ोटो (PNG या JPEG) चुनें।</translation>
    </message>
    <message>
        <source>%1 looks like a photo but cannot be shown: it may be damaged. Take the photo again.</source>
        <translation>%1 फ़ोटो जैसी लगती है, पर दिखाई नहीं जा सकती: शायद ख़राब है। फ़ोटो दोबारा लें।</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 बाइट</translation>
    </message>
    <message>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
</context>
<context>
    <name>StatementDialog</name>
    <message>
        <source>&amp;Show</source>
        <translation>दिखाएँ (&amp;S)</translation>
    </message>
    <message>
        <source>Export &amp;CSV…</source>
        <translation>CSV एक्सपोर्ट करें (&amp;C)…</translation>
    </message>
    <message>
        <source>Save &amp;PDF…</source>
        <translation>PDF सेव करें (&amp;P)…</translation>
    </message>
    <message>
        <source>Statement of %1</source>
        <translation>%1 का स्टेटमेंट</translation>
    </message>
    <message>
        <source>&amp;From</source>
        <translation>से (&amp;F)</translation>
    </message>
    <message>
        <source>&amp;To</source>
        <translation>तक (&amp;T)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>बंद करें</translation>
    </message>
    <message>
        <source>The first day comes after the last: choose the days again.</source>
        <translation>पहला दिन आख़िरी दिन के बाद का है: दिन फिर से चुनें।</translation>
    </message>
    <message>
        <source>The statement could not be loaded: %1</source>
        <translation>स्टेटमेंट लोड नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>Statement of %1 · %2</source>
        <translation>%1 का स्टेटमेंट · %2</translation>
    </message>
    <message>
        <source>Export the statement as CSV</source>
        <translation>स्टेटमेंट CSV में एक्सपोर्ट करें</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV फ़ाइलें (*.csv)</translation>
    </message>
    <message>
        <source>Save the statement as PDF</source>
        <translation>स्टेटमेंट PDF में सेव करें</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF फ़ाइलें (*.pdf)</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>एक्सपोर्ट हो रहा है…</translation>
    </message>
    <message>
        <source>The CSV could not be exported: %1</source>
        <translation>CSV एक्सपोर्ट नहीं हो सकी: %1</translation>
    </message>
    <message>
        <source>The CSV could not be saved: %1</source>
        <translation>CSV सेव नहीं हो सकी: %1</translation>
    </message>
    <message>
        <source>The statement is saved in %1.</source>
        <translation>स्टेटमेंट %1 में सेव हो गया।</translation>
    </message>
    <message>
        <source>Preparing the PDF…</source>
        <translation>PDF तैयार हो रही है…</translation>
    </message>
</context>
<context>
    <name>StatementReport</name>
    <message>
        <source>sale %1</source>
        <translation>बिक्री %1</translation>
    </message>
    <message>
        <source>ref %1</source>
        <translation>रेफ़रेंस %1</translation>
    </message>
    <message>
        <source>Top-up</source>
        <translation>टॉप-अप</translation>
    </message>
    <message>
        <source>Fund request</source>
        <translation>फ़ंड रिक्वेस्ट</translation>
    </message>
    <message>
        <source>Sale</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Refund</source>
        <translation>रिफ़ंड</translation>
    </message>
    <message>
        <source>Reversal</source>
        <translation>उलटी गई बिक्री</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>अन्य</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>बैलेंस</translation>
    </message>
    <message>
        <source>Opening, %1</source>
        <translation>शुरुआती, %1</translation>
    </message>
    <message>
        <source>Closing, %1</source>
        <translation>अंतिम, %1</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>एंट्री</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>कुल जोड़</translation>
    </message>
    <message>
        <source>Top-ups</source>
        <translation>टॉप-अप</translation>
    </message>
    <message>
        <source>Fund requests</source>
        <translation>फ़ंड रिक्वेस्ट</translation>
    </message>
    <message>
        <source>Sales</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Refunds</source>
        <translation>रिफ़ंड</translation>
    </message>
    <message>
        <source>Reversals</source>
        <translation>उलटी गई बिक्री</translation>
    </message>
    <message>
        <source>Showing the first %1 of %2 lines. The CSV and the PDF have every line.</source>
        <translation>%2 में से पहली %1 एंट्री दिख रही हैं। CSV और PDF में हर एंट्री है।</translation>
    </message>
    <message>
        <source>Time (IST)</source>
        <translation>समय (IST)</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>ब्योरा</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>नोट</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>Nothing moved in these days.</source>
        <translation>इन दिनों में कोई लेन-देन नहीं हुआ।</translation>
    </message>
    <message>
        <source>Statement of %1</source>
        <translation>%1 का स्टेटमेंट</translation>
    </message>
    <message>
        <source>GSTIN %1</source>
        <translation>GSTIN %1</translation>
    </message>
    <message>
        <source>The PDF could not be written to %1.</source>
        <translation>PDF %1 में नहीं लिखी जा सकी।</translation>
    </message>
</context>
<context>
    <name>StatementsCard</name>
    <message>
        <source>Differs from our sale</source>
        <translation>हमारी बिक्री से अलग</translation>
    </message>
    <message>
        <source>No sale of ours</source>
        <translation>हमारी कोई बिक्री नहीं</translation>
    </message>
    <message>
        <source>Unreadable row</source>
        <translation>पढ़ने लायक पंक्ति नहीं</translation>
    </message>
    <message>
        <source>&amp;Import statement…</source>
        <translation>स्टेटमेंट इम्पोर्ट करें (&amp;I)…</translation>
    </message>
    <message>
        <source>When (IST)</source>
        <translation>कब (IST)</translation>
    </message>
    <message>
        <source>File</source>
        <translation>फ़ाइल</translation>
    </message>
    <message>
        <source>By</source>
        <translation>किसने</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>पंक्तियाँ</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>मेल खाईं</translation>
    </message>
    <message>
        <source>Settled</source>
        <translation>पूरी हुईं</translation>
    </message>
    <message>
        <source>Reversed</source>
        <translation>पलटी गईं</translation>
    </message>
    <message>
        <source>Mismatched</source>
        <translation>अंतर वाली</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>अज्ञात</translation>
    </message>
    <message>
        <source>Unreadable</source>
        <translation>पढ़ी न जा सकीं</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>पंक्ति</translation>
    </message>
    <message>
        <source>What</source>
        <translation>क्या</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>रेफ़रेंस</translation>
    </message>
    <message>
        <source>Sale</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Statement says</source>
        <translation>स्टेटमेंट में</translation>
    </message>
    <message>
        <source>Held here</source>
        <translation>यहाँ दर्ज</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>क्यों</translation>
    </message>
    <message>
        <source>Statements</source>
        <translation>स्टेटमेंट</translation>
    </message>
    <message>
        <source>Import the CSV statement the aggregator&apos;s dashboard exports. Each row is matched by its reference to a sale sent to that upstream: a sale still waiting settles once; FAILED for a sale held SUCCESS is a reversal, refunded once; anything else that differs moves no money and is listed for a person. Importing the same statement again changes nothing.</source>
        <translation>एग्रीगेटर के डैशबोर्ड से निकाला गया CSV स्टेटमेंट इम्पोर्ट करें। हर पंक्ति अपने रेफ़रेंस से उस अपस्ट्रीम को भेजी गई बिक्री से मिलाई जाती है: इंतज़ार कर रही बिक्री एक बार पूरी होती है; सफल मानी गई बिक्री के लिए असफल आए तो बिक्री पलटी जाती है और एक बार रिफ़ंड होता है; बाकी हर अंतर में कोई पैसा नहीं हिलता और वह किसी व्यक्ति के देखने के लिए सूची में आता है। वही स्टेटमेंट दोबारा इम्पोर्ट करने से कुछ नहीं बदलता।</translation>
    </message>
    <message>
        <source>&amp;For upstream</source>
        <translation>किस अपस्ट्रीम का (&amp;F)</translation>
    </message>
    <message>
        <source>Choose the statement&apos;s CSV file and reconcile it (a live admin)</source>
        <translation>स्टेटमेंट की CSV फ़ाइल चुनें और उसका मिलान करें (लाइव एडमिन)</translation>
    </message>
    <message>
        <source>Past &amp;runs (newest first)</source>
        <translation>पिछले मिलान (&amp;R) (नए पहले)</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>बिना बदलाव</translation>
    </message>
    <message>
        <source>The past runs are not available: %1</source>
        <translation>पिछले मिलान उपलब्ध नहीं हैं: %1</translation>
    </message>
    <message>
        <source>No statement of %1 was imported yet.</source>
        <translation>%1 का कोई स्टेटमेंट अभी तक इम्पोर्ट नहीं हुआ।</translation>
    </message>
    <message>
        <source>%1 — imported %2 (IST) by %3</source>
        <translation>%1 — %2 (IST) पर %3 ने इम्पोर्ट किया</translation>
    </message>
    <message>
        <source>Nothing for a person to look at: every row matched a sale as it is, or settled it.</source>
        <translation>किसी व्यक्ति के देखने को कुछ नहीं: हर पंक्ति किसी बिक्री से वैसे ही मेल खाई, या उसे पूरा कर गई।</translation>
    </message>
    <message>
        <source>For a person to look at: the first %1 of %2 lines (the counts are of every row).</source>
        <translation>किसी व्यक्ति के देखने के लिए: %2 में से पहली %1 पंक्तियाँ (गिनती हर पंक्ति की है)।</translation>
    </message>
    <message>
        <source>For a person to look at (no money was moved for these):</source>
        <translation>किसी व्यक्ति के देखने के लिए (इनके लिए कोई पैसा नहीं हिला):</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>The statement of %1 (CSV)</source>
        <translation>%1 का स्टेटमेंट (CSV)</translation>
    </message>
    <message>
        <source>CSV statements (*.csv);;All files (*)</source>
        <translation>CSV स्टेटमेंट (*.csv);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>%1 पढ़ी नहीं जा सकी: %2</translation>
    </message>
    <message>
        <source>%1 is larger than 8 MiB, the most the server takes: export a shorter period from the aggregator&apos;s dashboard.</source>
        <translation>%1 8 MiB से बड़ी है, जितना सर्वर ज़्यादा से ज़्यादा लेता है: एग्रीगेटर के डैशबोर्ड से छोटी अवधि का स्टेटमेंट निकालें।</translation>
    </message>
    <message>
        <source>%1 is not UTF-8 text: export it from the dashboard as CSV (UTF-8).</source>
        <translation>%1 UTF-8 टेक्स्ट नहीं है: इसे डैशबोर्ड से CSV (UTF-8) के रूप में निकालें।</translation>
    </message>
    <message>
        <source>Reconciling %1 with the sales sent to %2…</source>
        <translation>%1 का %2 को भेजी गई बिक्री से मिलान हो रहा है…</translation>
    </message>
    <message>
        <source>The server did not answer: %1</source>
        <translation>सर्वर ने जवाब नहीं दिया: %1</translation>
    </message>
    <message>
        <source>%1 was not taken over: %2</source>
        <translation>%1 नहीं लिया गया: %2</translation>
    </message>
    <message>
        <source>Reconciled %1 against %2: settled %3, reversed %4 (refunded once); lines for a person below: %5.</source>
        <translation>%1 का %2 से मिलान हो गया: %3 पूरी हुईं, %4 पलटी गईं (एक बार रिफ़ंड); नीचे किसी व्यक्ति के देखने के लिए पंक्तियाँ: %5।</translation>
    </message>
</context>
<context>
    <name>StatusBadge</name>
    <message>
        <source>✔ SUCCESS</source>
        <translation>✔ सफल</translation>
    </message>
    <message>
        <source>⏳ PENDING — waiting for the operator</source>
        <translation>⏳ पेंडिंग — ऑपरेटर के जवाब का इंतज़ार</translation>
    </message>
    <message>
        <source>✘ FAILED — amount refunded to the wallet</source>
        <translation>✘ असफल — राशि वॉलेट में वापस</translation>
    </message>
</context>
<context>
    <name>StatusPanel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>admin</source>
        <translation>एडमिन</translation>
    </message>
    <message>
        <source>clerk</source>
        <translation>क्लर्क</translation>
    </message>
    <message>
        <source>Server %1: online</source>
        <translation>सर्वर %1: ऑनलाइन</translation>
    </message>
    <message>
        <source>Server %1: OFFLINE</source>
        <translation>सर्वर %1: ऑफ़लाइन</translation>
    </message>
    <message>
        <source>Wallet: unavailable</source>
        <translation>वॉलेट: उपलब्ध नहीं</translation>
    </message>
    <message>
        <source>Wallet: %1 — LOW, top up</source>
        <translation>वॉलेट: %1 — कम है, टॉप-अप करें</translation>
    </message>
    <message>
        <source>Wallet: %1</source>
        <translation>वॉलेट: %1</translation>
    </message>
    <message>
        <source>Pending: %1%2</source>
        <translation>पेंडिंग: %1%2</translation>
    </message>
    <message>
        <source>Given back</source>
        <translation>वापस दिए</translation>
    </message>
    <message>
        <source>Press once the customer has their money back</source>
        <translation>ग्राहक को पैसे वापस मिलने पर दबाएँ</translation>
    </message>
    <message>
        <source>Give %1 back to the customer (sale %2)</source>
        <translation>ग्राहक को %1 वापस दें (बिक्री %2)</translation>
    </message>
    <message>
        <source>Give %1 back to the customer of %2 (sale %3)</source>
        <translation>%2 के ग्राहक को %1 वापस दें (बिक्री %3)</translation>
    </message>
    <message numerus="yes">
        <source> · %n more</source>
        <translation>
            <numerusform> · %n और</numerusform>
            <numerusform> · %n और</numerusform>
        </translation>
    </message>
    <message>
        <source>The sale failed after the customer paid (it was PENDING when you moved on). The wallet debit was refunded.</source>
        <translation>ग्राहक के भुगतान के बाद बिक्री असफल हुई (आगे बढ़ते समय यह PENDING थी)। वॉलेट से कटी राशि रिफ़ंड हो गई है।</translation>
    </message>
    <message>
        <source>Refund %1 by UPI to the customer (sale %2)</source>
        <translation>ग्राहक को %1 UPI से वापस भेजें (बिक्री %2)</translation>
    </message>
    <message>
        <source>Refund %1 by UPI to the customer of %2 (sale %3)</source>
        <translation>%2 के ग्राहक को %1 UPI से वापस भेजें (बिक्री %3)</translation>
    </message>
    <message>
        <source>Refunded</source>
        <translation>वापस भेज दिए</translation>
    </message>
</context>
<context>
    <name>TenderPanel</name>
    <message>
        <source>Cash</source>
        <translation>नकद</translation>
    </message>
    <message>
        <source>UPI</source>
        <translation>UPI</translation>
    </message>
    <message>
        <source>Paid by</source>
        <translation>भुगतान</translation>
    </message>
    <message>
        <source>optional: type it</source>
        <translation>ज़रूरी नहीं: लिख सकते हैं</translation>
    </message>
    <message>
        <source>Cash received ₹</source>
        <translation>ग्राहक से मिले ₹</translation>
    </message>
    <message>
        <source>This terminal cannot see the payment. Check the shop&apos;s UPI app or soundbox for the amount, then press UPI received.</source>
        <translation>यह टर्मिनल भुगतान नहीं देख सकता। दुकान के UPI ऐप या साउंडबॉक्स पर राशि जाँचें, फिर &quot;UPI मिल गया&quot; दबाएँ।</translation>
    </message>
    <message>
        <source>Set the shop&apos;s UPI ID in Settings to show a QR. The customer pays %1 to the shop&apos;s UPI ID.</source>
        <translation>QR दिखाने के लिए सेटिंग्स में दुकान की UPI ID डालें। ग्राहक %1 दुकान की UPI ID पर भेजें।</translation>
    </message>
    <message>
        <source>Change %1</source>
        <translation>लौटाएँ %1</translation>
    </message>
    <message>
        <source>No change to give</source>
        <translation>कुछ लौटाना नहीं</translation>
    </message>
    <message>
        <source>%1 short</source>
        <translation>%1 कम</translation>
    </message>
    <message>
        <source>Type what the customer hands over to see the change.</source>
        <translation>लौटाने की राशि देखने के लिए लिखें कि ग्राहक ने कितने दिए।</translation>
    </message>
</context>
<context>
    <name>TerminalView</name>
    <message>
        <source>TEST MODE — sandbox sales, no real recharges, sandbox wallet</source>
        <translation>टेस्ट मोड — सैंडबॉक्स बिक्री, कोई असली रिचार्ज नहीं, सैंडबॉक्स वॉलेट</translation>
    </message>
    <message>
        <source>Lock (Ctrl+L)</source>
        <translation>लॉक (Ctrl+L)</translation>
    </message>
    <message>
        <source>Verify customer</source>
        <translation>ग्राहक सत्यापन</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>प्लान</translation>
    </message>
    <message>
        <source>Mobile recharge</source>
        <translation>मोबाइल रिचार्ज</translation>
    </message>
    <message>
        <source>DTH recharge</source>
        <translation>DTH रिचार्ज</translation>
    </message>
    <message>
        <source>Gift voucher</source>
        <translation>गिफ़्ट वाउचर</translation>
    </message>
    <message>
        <source>Back office</source>
        <translation>बैक ऑफ़िस</translation>
    </message>
    <message>
        <source>%1   F%2</source>
        <translation>%1   F%2</translation>
    </message>
</context>
<context>
    <name>TopUpDialog</name>
    <message>
        <source>Top up %1</source>
        <translation>%1 को टॉप-अप करें</translation>
    </message>
    <message>
        <source>%1 · balance %2 · credit limit %3</source>
        <translation>%1 · बैलेंस %2 · उधार सीमा %3</translation>
    </message>
    <message>
        <source>&amp;Top up</source>
        <translation>टॉप-अप करें (&amp;T)</translation>
    </message>
    <message>
        <source>Whole rupees</source>
        <translation>पूरे रुपये</translation>
    </message>
    <message>
        <source>Cash</source>
        <translation>नकद</translation>
    </message>
    <message>
        <source>UPI</source>
        <translation>UPI</translation>
    </message>
    <message>
        <source>Bank transfer</source>
        <translation>बैंक ट्रांसफ़र</translation>
    </message>
    <message>
        <source>UTR or receipt number (required for UPI and bank)</source>
        <translation>UTR या रसीद नंबर (UPI और बैंक के लिए ज़रूरी)</translation>
    </message>
    <message>
        <source>&amp;Amount (₹)</source>
        <translation>राशि (₹) (&amp;A)</translation>
    </message>
    <message>
        <source>Paid &amp;by</source>
        <translation>भुगतान का तरीका (&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Reference</source>
        <translation>रेफ़रेंस (&amp;R)</translation>
    </message>
    <message>
        <source>N&amp;ote</source>
        <translation>नोट (&amp;O)</translation>
    </message>
    <message>
        <source>Type the amount the shop paid, in whole rupees.</source>
        <translation>दुकान ने जो राशि दी, वह पूरे रुपयों में लिखें।</translation>
    </message>
    <message>
        <source>Type the UTR or reference of the %1 payment: it goes into the shop&apos;s statement.</source>
        <translation>%1 भुगतान का UTR या रेफ़रेंस लिखें: यह दुकान के स्टेटमेंट में जाता है।</translation>
    </message>
    <message>
        <source>The reference holds characters that cannot be stored.</source>
        <translation>रेफ़रेंस में ऐसे अक्षर हैं जिन्हें सहेजा नहीं जा सकता।</translation>
    </message>
</context>
<context>
    <name>TypedColumn</name>
    <message>
        <source>Unreadable answer: %1</source>
        <translation>पढ़ने लायक जवाब नहीं: %1</translation>
    </message>
</context>
<context>
    <name>UpiQrWidget</name>
    <message>
        <source>%1 to %2</source>
        <extracomment>Under the UPI QR: the amount to pay and who receives it, e.g. &quot;₹299.00 to Sharma Mobile&quot;.</extracomment>
        <translation>%2 को %1</translation>
    </message>
</context>
<context>
    <name>UpstreamCallsView</name>
    <message>
        <source>Recheck with &amp;upstream</source>
        <translation>अपस्ट्रीम से फिर जाँचें (&amp;U)</translation>
    </message>
    <message>
        <source>Upstream</source>
        <translation>अपस्ट्रीम</translation>
    </message>
    <message>
        <source>Ask the upstream about this sale now</source>
        <translation>इस बिक्री के बारे में अभी अपस्ट्रीम से पूछें</translation>
    </message>
    <message>
        <source>When (IST)</source>
        <translation>कब (IST)</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>एंडपॉइंट</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>लेटेंसी</translation>
    </message>
    <message>
        <source>Outcome / error</source>
        <translation>नतीजा / त्रुटि</translation>
    </message>
    <message>
        <source>State: %1</source>
        <translation>स्थिति: %1</translation>
    </message>
    <message>
        <source>Reference at the upstream: %1</source>
        <translation>अपस्ट्रीम पर रेफ़रेंस: %1</translation>
    </message>
    <message>
        <source>  ·  its transaction id %1</source>
        <translation>  ·  उसकी ट्रांजैक्शन ID %1</translation>
    </message>
    <message>
        <source>  ·  attempts %1</source>
        <translation>  ·  कोशिशें %1</translation>
    </message>
    <message>
        <source>The upstream calls are not available: %1</source>
        <translation>अपस्ट्रीम कॉल उपलब्ध नहीं: %1</translation>
    </message>
    <message>
        <source>No call was made to the upstream yet.</source>
        <translation>अपस्ट्रीम को अभी तक कोई कॉल नहीं किया गया।</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Could not recheck with the upstream: %1</source>
        <translation>अपस्ट्रीम से फिर जाँच नहीं हो सकी: %1</translation>
    </message>
    <message>
        <source>Asked the upstream. Now: %1 (%2).</source>
        <translation>अपस्ट्रीम से पूछ लिया। अब: %1 (%2)।</translation>
    </message>
    <message>
        <source>This upstream offers no status check: the sale ends by its webhook, its statement or by hand (Resolve…)</source>
        <translation>यह अपस्ट्रीम स्थिति की जाँच नहीं देता: बिक्री उसके वेबहुक, उसके स्टेटमेंट या हाथ से (निपटाएँ…) पूरी होती है</translation>
    </message>
</context>
<context>
    <name>UpstreamDialog</name>
    <message>
        <source>Mobile</source>
        <translation>मोबाइल</translation>
    </message>
    <message>
        <source>DTH</source>
        <translation>DTH</translation>
    </message>
    <message>
        <source>Vouchers</source>
        <translation>वाउचर</translation>
    </message>
    <message>
        <source>Aadhaar</source>
        <translation>आधार</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>प्लान</translation>
    </message>
    <message>
        <source>An aggregator&apos;s dashboard &amp;credential</source>
        <translation>एग्रीगेटर के डैशबोर्ड का क्रेडेंशियल (&amp;C)</translation>
    </message>
    <message>
        <source>A RechargeDesk distributor&apos;s &amp;key id and secret</source>
        <translation>RechargeDesk डिस्ट्रीब्यूटर की कुंजी ID और सीक्रेट (&amp;K)</translation>
    </message>
    <message>
        <source>From &amp;file…</source>
        <translation>फ़ाइल से (&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Enabled: live sales may go to it</source>
        <translation>चालू (&amp;E): लाइव बिक्री इसे जा सकती है</translation>
    </message>
    <message>
        <source>Edit the upstream %1</source>
        <translation>अपस्ट्रीम %1 बदलें</translation>
    </message>
    <message>
        <source>Add an upstream</source>
        <translation>अपस्ट्रीम जोड़ें</translation>
    </message>
    <message>
        <source>Live sales try the enabled upstreams by priority, lowest first. A definite failure moves a sale to the next one; an unknown outcome never does.</source>
        <translation>लाइव बिक्री चालू अपस्ट्रीम को प्राथमिकता के क्रम में आज़माती है, सबसे कम पहले। पक्की असफलता बिक्री को अगले पर ले जाती है; अज्ञात नतीजा कभी नहीं।</translation>
    </message>
    <message>
        <source>e.g. payfast (lower-case letters, digits, _ or -)</source>
        <translation>जैसे payfast (अंग्रेज़ी के छोटे अक्षर, अंक, _ या -)</translation>
    </message>
    <message>
        <source>https://aggregator.example.in/api/v1</source>
        <translation>https://aggregator.example.in/api/v1</translation>
    </message>
    <message>
        <source>Paste it from the aggregator&apos;s dashboard, or load it from a file</source>
        <translation>इसे एग्रीगेटर के डैशबोर्ड से चिपकाएँ, या किसी फ़ाइल से लोड करें</translation>
    </message>
    <message>
        <source>The key id the distributor gave this shop</source>
        <translation>डिस्ट्रीब्यूटर ने इस दुकान को जो कुंजी ID दी</translation>
    </message>
    <message>
        <source>Typed again on every save; never shown back</source>
        <translation>हर बार सेव करते समय दोबारा लिखें; यह वापस कभी नहीं दिखता</translation>
    </message>
    <message>
        <source>The password its webhooks carry (webhook_password)</source>
        <translation>इसके वेबहुक में आने वाला पासवर्ड (webhook_password)</translation>
    </message>
    <message>
        <source>Optional: its webhook signing secret (whsec_…)</source>
        <translation>वैकल्पिक: इसके वेबहुक का साइनिंग सीक्रेट (whsec_…)</translation>
    </message>
    <message>
        <source>Operator code %1</source>
        <translation>ऑपरेटर कोड %1</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>नाम (&amp;N)</translation>
    </message>
    <message>
        <source>Base &amp;URL</source>
        <translation>बेस URL (&amp;U)</translation>
    </message>
    <message>
        <source>It gives</source>
        <translation>यह देता है</translation>
    </message>
    <message>
        <source>C&amp;redential</source>
        <translation>क्रेडेंशियल (&amp;R)</translation>
    </message>
    <message>
        <source>Key &amp;id</source>
        <translation>कुंजी ID (&amp;I)</translation>
    </message>
    <message>
        <source>Key &amp;secret</source>
        <translation>कुंजी का सीक्रेट (&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Webhook password</source>
        <translation>वेबहुक पासवर्ड (&amp;W)</translation>
    </message>
    <message>
        <source>Webhook signing secre&amp;t</source>
        <translation>वेबहुक साइनिंग सीक्रेट (&amp;T)</translation>
    </message>
    <message>
        <source>Lowest is tried first (0 to 1000).</source>
        <translation>सबसे कम वाला पहले आज़माया जाता है (0 से 1000)।</translation>
    </message>
    <message>
        <source>&amp;Priority</source>
        <translation>प्राथमिकता (&amp;P)</translation>
    </message>
    <message>
        <source>Sells</source>
        <translation>क्या बेचता है</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>ऑपरेटर</translation>
    </message>
    <message>
        <source>None ticked: it sells every service, or every operator.</source>
        <translation>कुछ न चुना हो: यह हर सेवा, या हर ऑपरेटर के लिए बेचता है।</translation>
    </message>
    <message>
        <source>Sa&amp;ve upstream</source>
        <translation>अपस्ट्रीम सेव करें (&amp;V)</translation>
    </message>
    <message>
        <source>%1 is too large for a credential (at most %2 characters).</source>
        <translation>%1 क्रेडेंशियल के लिए बहुत बड़ी है (ज़्यादा से ज़्यादा %2 अक्षर)।</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>%1 पढ़ी नहीं जा सकी: %2</translation>
    </message>
    <message>
        <source>%1 does not hold a credential: save the API key credential the aggregator&apos;s dashboard shows in a text file, alone.</source>
        <translation>%1 में क्रेडेंशियल नहीं है: एग्रीगेटर का डैशबोर्ड जो API key क्रेडेंशियल दिखाता है, उसे अकेले एक टेक्स्ट फ़ाइल में सेव करें।</translation>
    </message>
    <message>
        <source>The aggregator&apos;s credential</source>
        <translation>एग्रीगेटर का क्रेडेंशियल</translation>
    </message>
    <message>
        <source>Text files (*.txt *.key);;All files (*)</source>
        <translation>टेक्स्ट फ़ाइलें (*.txt *.key);;सभी फ़ाइलें (*)</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>सेव हो रहा है…</translation>
    </message>
    <message>
        <source>Give it a name of 1 to 32 lower-case letters, digits, _ or -, e.g. payfast.</source>
        <translation>1 से 32 अंग्रेज़ी के छोटे अक्षरों, अंकों, _ या - का नाम दें, जैसे payfast।</translation>
    </message>
    <message>
        <source>Enter the upstream&apos;s base URL, ending in /api/v1.</source>
        <translation>अपस्ट्रीम का बेस URL लिखें, जो /api/v1 पर ख़त्म हो।</translation>
    </message>
    <message>
        <source>Paste the API key credential the aggregator&apos;s dashboard shows, or load it from a file: it is never shown back, so it is given again on every save.</source>
        <translation>एग्रीगेटर का डैशबोर्ड जो API key क्रेडेंशियल दिखाता है, उसे चिपकाएँ या फ़ाइल से लोड करें: यह वापस कभी नहीं दिखता, इसलिए हर बार सेव करते समय दोबारा देना होता है।</translation>
    </message>
    <message>
        <source>Enter the key id the distributor gave this shop.</source>
        <translation>डिस्ट्रीब्यूटर ने इस दुकान को जो कुंजी ID दी है, वह लिखें।</translation>
    </message>
    <message>
        <source>Enter the key secret: it is never shown back, so it is typed again on every save.</source>
        <translation>कुंजी का सीक्रेट लिखें: यह वापस कभी नहीं दिखता, इसलिए हर बार सेव करते समय इसे दोबारा लिखना होता है।</translation>
    </message>
    <message>
        <source>Without the webhook password this upstream&apos;s webhooks are refused, and a sale whose answer was lost ends only by its statement or by hand. Type it, or press Save again to save without it.</source>
        <translation>वेबहुक पासवर्ड के बिना इस अपस्ट्रीम के वेबहुक ठुकरा दिए जाते हैं, और जिस बिक्री का जवाब खो गया वह सिर्फ़ उसके स्टेटमेंट से या हाथ से पूरी होती है। इसे लिखें, या इसके बिना सेव करने के लिए दोबारा सेव दबाएँ।</translation>
    </message>
    <message>
        <source>The server never shows a secret back: type the credential (or key secret), the webhook password and, when it is used, the signing secret again to save. A change applies to the next live sale.</source>
        <translation>सर्वर कोई सीक्रेट वापस नहीं दिखाता: सेव करने के लिए क्रेडेंशियल (या कुंजी का सीक्रेट), वेबहुक पासवर्ड और, अगर इस्तेमाल होता है तो, साइनिंग सीक्रेट दोबारा लिखें। बदलाव अगली लाइव बिक्री से लागू होता है।</translation>
    </message>
</context>
<context>
    <name>UpstreamNotice</name>
    <message>
        <source>Waiting for the operator — %1</source>
        <translation>ऑपरेटर के जवाब का इंतज़ार — %1</translation>
    </message>
</context>
<context>
    <name>UpstreamSaleInfo</name>
    <message>
        <source>Queued: not yet sent to the upstream</source>
        <translation>कतार में: अभी अपस्ट्रीम को नहीं भेजी गई</translation>
    </message>
    <message>
        <source>Sent: waiting for the upstream&apos;s first answer</source>
        <translation>भेजी गई: अपस्ट्रीम के पहले जवाब का इंतज़ार</translation>
    </message>
    <message>
        <source>Unknown: no definite answer yet; being sent again with the same reference</source>
        <translation>अज्ञात: अभी कोई पक्का जवाब नहीं; उसी रेफ़रेंस से दोबारा भेजी जा रही है</translation>
    </message>
    <message>
        <source>Pending at the upstream: waiting for the operator&apos;s answer</source>
        <translation>अपस्ट्रीम पर पेंडिंग: ऑपरेटर के जवाब का इंतज़ार</translation>
    </message>
    <message>
        <source>Settled by the upstream</source>
        <translation>अपस्ट्रीम से पूरी हुई</translation>
    </message>
    <message>
        <source>Refused by the upstream (refunded)</source>
        <translation>अपस्ट्रीम ने मना किया (रिफ़ंड हुआ)</translation>
    </message>
    <message>
        <source>The distributor&apos;s wallet is short — nothing was charged to the customer. Ask the distributor to top up, then sell again.</source>
        <translation>डिस्ट्रीब्यूटर के वॉलेट में पैसे कम हैं — ग्राहक से कोई पैसा नहीं लिया गया। डिस्ट्रीब्यूटर से टॉप-अप करवाएँ, फिर दोबारा बेचें।</translation>
    </message>
    <message>
        <source>The upstream already has a different sale under this reference — nothing was charged to the customer. Sell again.</source>
        <translation>अपस्ट्रीम के पास इस रेफ़रेंस से पहले से कोई दूसरी बिक्री है — ग्राहक से कोई पैसा नहीं लिया गया। दोबारा बेचें।</translation>
    </message>
    <message>
        <source>The upstream refused the sale&apos;s details — nothing was charged to the customer.</source>
        <translation>अपस्ट्रीम ने बिक्री का ब्योरा नहीं माना — ग्राहक से कोई पैसा नहीं लिया गया।</translation>
    </message>
    <message>
        <source>The upstream refused the sale&apos;s details (%1) — nothing was charged to the customer.</source>
        <translation>अपस्ट्रीम ने बिक्री का ब्योरा नहीं माना (%1) — ग्राहक से कोई पैसा नहीं लिया गया।</translation>
    </message>
    <message>
        <source>The upstream said: %1</source>
        <translation>अपस्ट्रीम ने कहा: %1</translation>
    </message>
    <message>
        <source>The upstream refused the sale — nothing was charged to the customer.</source>
        <translation>अपस्ट्रीम ने बिक्री से मना कर दिया — ग्राहक से कोई पैसा नहीं लिया गया।</translation>
    </message>
    <message>
        <source>The upstream refused the sale (%1) — nothing was charged to the customer.</source>
        <translation>अपस्ट्रीम ने बिक्री से मना कर दिया (%1) — ग्राहक से कोई पैसा नहीं लिया गया।</translation>
    </message>
    <message>
        <source>Resolved by hand</source>
        <translation>हाथ से निपटाई गई</translation>
    </message>
    <message>
        <source>Unknown: sent once and no answer came; it is never sent again</source>
        <translation>अज्ञात: एक बार भेजी गई और कोई जवाब नहीं आया; दोबारा कभी नहीं भेजी जाएगी</translation>
    </message>
    <message>
        <source>Pending at the upstream: waiting for its webhook (it offers no status check)</source>
        <translation>अपस्ट्रीम पर पेंडिंग: उसके वेबहुक का इंतज़ार (वह स्थिति की जाँच नहीं देता)</translation>
    </message>
    <message>
        <source>The upstream said: “%1”</source>
        <translation>अपस्ट्रीम ने कहा: “%1”</translation>
    </message>
    <message>
        <source>Sent once to the aggregator; it answered PENDING and its webhook never came. The aggregator offers no status check: end it by its statement or by hand after checking its dashboard.</source>
        <translation>एग्रीगेटर को एक बार भेजी गई; उसने पेंडिंग जवाब दिया और उसका वेबहुक कभी नहीं आया। एग्रीगेटर स्थिति की जाँच नहीं देता: इसे उसके स्टेटमेंट से, या उसका डैशबोर्ड जाँचकर हाथ से, पूरा करें।</translation>
    </message>
    <message>
        <source>Sent once to the aggregator; its answer never came. The aggregator offers no status check: end it by its statement or by hand after checking its dashboard.</source>
        <translation>एग्रीगेटर को एक बार भेजी गई; उसका जवाब कभी नहीं आया। एग्रीगेटर स्थिति की जाँच नहीं देता: इसे उसके स्टेटमेंट से, या उसका डैशबोर्ड जाँचकर हाथ से, पूरा करें।</translation>
    </message>
    <message>
        <source>The upstream answered PENDING and has not ended the sale since. RechargeDesk keeps asking it; if this lasts, check the upstream&apos;s dashboard and end the sale by hand.</source>
        <translation>अपस्ट्रीम ने पेंडिंग जवाब दिया और तब से बिक्री पूरी नहीं की। RechargeDesk उससे पूछता रहता है; अगर ऐसा ही रहे तो अपस्ट्रीम का डैशबोर्ड जाँचें और बिक्री हाथ से पूरी करें।</translation>
    </message>
    <message>
        <source>No definite answer from the upstream yet. RechargeDesk keeps sending the same reference, which the upstream never sells twice; if this lasts, check the upstream&apos;s dashboard and end the sale by hand.</source>
        <translation>अपस्ट्रीम से अभी कोई पक्का जवाब नहीं। RechargeDesk वही रेफ़रेंस भेजता रहता है, जिसे अपस्ट्रीम कभी दो बार नहीं बेचता; अगर ऐसा ही रहे तो अपस्ट्रीम का डैशबोर्ड जाँचें और बिक्री हाथ से पूरी करें।</translation>
    </message>
    <message>
        <source>Resolved by hand by %1 at %2: %3</source>
        <translation>%1 ने %2 पर हाथ से निपटाई: %3</translation>
    </message>
    <message>
        <source>Reversed by the operator after SUCCESS (refunded once)</source>
        <translation>सफल होने के बाद ऑपरेटर ने पलट दी (एक बार रिफ़ंड)</translation>
    </message>
    <message>
        <source>The upstream did not accept this shop&apos;s key — nothing was charged to the customer. An admin should check Back office → Settings → Upstreams.</source>
        <translation>अपस्ट्रीम ने इस दुकान की कुंजी नहीं मानी — ग्राहक से कोई पैसा नहीं लिया गया। एडमिन बैक ऑफ़िस → सेटिंग्स → अपस्ट्रीम देखें।</translation>
    </message>
    <message>
        <source>Reversed by the operator at %1</source>
        <translation>%1 पर ऑपरेटर ने पलट दी</translation>
    </message>
    <message>
        <source>The upstream&apos;s statement reports FAILED for this sale after it had reported SUCCESS: the sale is FAILED now and %1 went back to the wallet once.</source>
        <translation>सफल बताने के बाद अपस्ट्रीम का स्टेटमेंट इस बिक्री को असफल बताता है: बिक्री अब असफल है और %1 एक बार वॉलेट में वापस आ गए।</translation>
    </message>
    <message>
        <source>The upstream&apos;s webhook reported FAILED for this sale after it had reported SUCCESS: the sale is FAILED now and %1 went back to the wallet once.</source>
        <translation>सफल बताने के बाद अपस्ट्रीम के वेबहुक ने इस बिक्री को असफल बताया: बिक्री अब असफल है और %1 एक बार वॉलेट में वापस आ गए।</translation>
    </message>
    <message>
        <source>The upstream reports %1 for this sale, held %2 here: check with the upstream; nothing was debited again.</source>
        <translation>अपस्ट्रीम इस बिक्री को %1 बताता है, यहाँ यह %2 दर्ज है: अपस्ट्रीम से मिलान करें; दोबारा कोई पैसा नहीं काटा गया।</translation>
    </message>
    <message>
        <source>Its statement said so (imported at %1).</source>
        <translation>उसके स्टेटमेंट ने ऐसा कहा (%1 पर इम्पोर्ट हुआ)।</translation>
    </message>
    <message>
        <source>Its webhook said so at %1.</source>
        <translation>उसके वेबहुक ने %1 पर ऐसा कहा।</translation>
    </message>
    <message>
        <source>An upstream</source>
        <translation>एक अपस्ट्रीम</translation>
    </message>
    <message>
        <source>%1 failed it</source>
        <translation>%1 पर असफल हुई</translation>
    </message>
    <message>
        <source>%1 refused it</source>
        <translation>%1 ने मना किया</translation>
    </message>
    <message>
        <source>%1: “%2”</source>
        <translation>%1: “%2”</translation>
    </message>
    <message>
        <source>Tried before, then sent on to %1:</source>
        <translation>पहले आज़माया गया, फिर %1 को भेजी गई:</translation>
    </message>
</context>
<context>
    <name>UpstreamStatus</name>
    <message>
        <source>Upstream online</source>
        <translation>अपस्ट्रीम ऑनलाइन</translation>
    </message>
    <message>
        <source>Upstream unreachable since %1</source>
        <translation>अपस्ट्रीम %1 से पहुँच से बाहर</translation>
    </message>
    <message>
        <source>Upstream unreachable</source>
        <translation>अपस्ट्रीम पहुँच से बाहर</translation>
    </message>
    <message>
        <source>Upstream not contacted yet</source>
        <translation>अपस्ट्रीम से अभी संपर्क नहीं हुआ</translation>
    </message>
    <message>
        <source>Not configured: live sales are refused until an upstream is saved here.</source>
        <translation>सेट नहीं है: जब तक यहाँ कोई अपस्ट्रीम सेव नहीं होता, लाइव बिक्री नहीं होगी।</translation>
    </message>
    <message>
        <source> Last contact %1 IST.</source>
        <translation> आख़िरी संपर्क %1 IST।</translation>
    </message>
    <message>
        <source>Online.</source>
        <translation>ऑनलाइन।</translation>
    </message>
    <message>
        <source>Unreachable since %1 IST.</source>
        <translation>%1 IST से पहुँच से बाहर।</translation>
    </message>
    <message>
        <source>Unreachable.</source>
        <translation>पहुँच से बाहर।</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>आख़िरी त्रुटि: %1</translation>
    </message>
    <message>
        <source>Configured, not contacted yet: the first live sale or Check will try it.</source>
        <translation>सेट है, अभी संपर्क नहीं हुआ: पहली लाइव बिक्री या &quot;जाँचें&quot; इसे आज़माएगी।</translation>
    </message>
    <message>
        <source>1 sale needs attention</source>
        <translation>1 बिक्री पर ध्यान चाहिए</translation>
    </message>
    <message>
        <source>%1 sales need attention</source>
        <translation>%1 बिक्री पर ध्यान चाहिए</translation>
    </message>
    <message>
        <source>Live sales the upstream has not ended in %1 minutes.</source>
        <translation>लाइव बिक्री जिन्हें अपस्ट्रीम ने %1 मिनट में पूरा नहीं किया।</translation>
    </message>
    <message>
        <source>Live sales the upstream has not ended for a long time.</source>
        <translation>लाइव बिक्री जिन्हें अपस्ट्रीम ने बहुत देर से पूरा नहीं किया।</translation>
    </message>
    <message>
        <source>An admin checks them in Back office → History → Needs attention and ends them by hand.</source>
        <translation>एडमिन इन्हें बैक ऑफ़िस → इतिहास → ध्यान चाहिए में जाँचकर हाथ से पूरा करता है।</translation>
    </message>
</context>
<context>
    <name>UpstreamsPage</name>
    <message>
        <source>Promises the spec only — sends each sale once</source>
        <translation>सिर्फ़ स्पेक का वादा — हर बिक्री एक बार भेजता है</translation>
    </message>
    <message>
        <source>RechargeDesk</source>
        <translation>RechargeDesk</translation>
    </message>
    <message>
        <source>Not read yet</source>
        <translation>अभी पढ़ा नहीं गया</translation>
    </message>
    <message>
        <source>All services</source>
        <translation>सभी सेवाएँ</translation>
    </message>
    <message>
        <source>all operators</source>
        <translation>सभी ऑपरेटर</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Not configured</source>
        <translation>सेट नहीं है</translation>
    </message>
    <message>
        <source>Online · last contact %1</source>
        <translation>ऑनलाइन · आख़िरी संपर्क %1</translation>
    </message>
    <message>
        <source>Online</source>
        <translation>ऑनलाइन</translation>
    </message>
    <message>
        <source>Unreachable since %1</source>
        <translation>%1 से पहुँच से बाहर</translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation>पहुँच से बाहर</translation>
    </message>
    <message>
        <source>Not contacted yet</source>
        <translation>अभी संपर्क नहीं हुआ</translation>
    </message>
    <message>
        <source>&amp;Add upstream…</source>
        <translation>अपस्ट्रीम जोड़ें (&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>बदलें (&amp;E)…</translation>
    </message>
    <message>
        <source>C&amp;heck</source>
        <translation>जाँचें (&amp;H)</translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation>हटाएँ (&amp;M)…</translation>
    </message>
    <message>
        <source>In the order live sales try them</source>
        <translation>जिस क्रम में लाइव बिक्री इन्हें आज़माती है</translation>
    </message>
    <message>
        <source>Live sales go to the first enabled upstream, by priority, that sells the sale&apos;s service and operator. A definite failure there (FAILED, or a refusal) moves the sale to the next one with a new reference; an unknown outcome never does, since the first may have sold it. Kept by the server; a change applies to the next live sale.</source>
        <translation>लाइव बिक्री प्राथमिकता के क्रम में उस पहले चालू अपस्ट्रीम को जाती है जो बिक्री की सेवा और ऑपरेटर बेचता है। वहाँ पक्की असफलता (असफल, या मना) बिक्री को नए रेफ़रेंस के साथ अगले पर ले जाती है; अज्ञात नतीजा कभी नहीं, क्योंकि हो सकता है पहले ने उसे बेच दिया हो। सर्वर इन्हें रखता है; बदलाव अगली लाइव बिक्री से लागू होता है।</translation>
    </message>
    <message>
        <source>Upstreams serve live sales, so only a live admin changes them: this terminal uses a test key and lists them only.</source>
        <translation>अपस्ट्रीम लाइव बिक्री के लिए हैं, इसलिए इन्हें सिर्फ़ लाइव एडमिन बदलता है: यह टर्मिनल टेस्ट कुंजी से चलता है और इन्हें सिर्फ़ दिखाता है।</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>प्राथमिकता</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>नाम</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Sells</source>
        <translation>क्या बेचता है</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>चालू</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>हालत</translation>
    </message>
    <message>
        <source>Webhook path</source>
        <translation>वेबहुक पाथ</translation>
    </message>
    <message>
        <source>Try its credential now and read again what it offers</source>
        <translation>इसका क्रेडेंशियल अभी आज़माएँ और दोबारा पढ़ें कि यह क्या देता है</translation>
    </message>
    <message>
        <source>Upstreams</source>
        <translation>अपस्ट्रीम</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>हाँ</translation>
    </message>
    <message>
        <source>No — skipped</source>
        <translation>नहीं — छोड़ा जाता है</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>आख़िरी त्रुटि: %1</translation>
    </message>
    <message>
        <source>No upstream yet: live sales are refused until one is added here.</source>
        <translation>अभी कोई अपस्ट्रीम नहीं: जब तक यहाँ कोई जोड़ा नहीं जाता, लाइव बिक्री नहीं होगी।</translation>
    </message>
    <message>
        <source>Select an upstream to see its state and the address of its webhooks.</source>
        <translation>किसी अपस्ट्रीम की हालत और उसके वेबहुक का पता देखने के लिए उसे चुनें।</translation>
    </message>
    <message>
        <source>key %1</source>
        <translation>कुंजी %1</translation>
    </message>
    <message>
        <source>its dashboard credential</source>
        <translation>उसके डैशबोर्ड का क्रेडेंशियल</translation>
    </message>
    <message>
        <source>%1 at %2 with %3. State: %4</source>
        <translation>%1, %2 पर, %3 के साथ। हालत: %4</translation>
    </message>
    <message>
        <source>Disabled: live sales skip it.</source>
        <translation>बंद है: लाइव बिक्री इसे छोड़ देती है।</translation>
    </message>
    <message>
        <source>It promises the spec only: each sale is sent to it once, ever, and never polled. A sale whose answer is lost waits for its webhook, its statement or a person (History → Needs attention).</source>
        <translation>यह सिर्फ़ स्पेक का वादा करता है: हर बिक्री इसे एक ही बार भेजी जाती है, और इससे स्थिति कभी नहीं पूछी जाती। जिस बिक्री का जवाब खो जाए वह इसके वेबहुक, इसके स्टेटमेंट या किसी व्यक्ति का इंतज़ार करती है (इतिहास → ध्यान चाहिए)।</translation>
    </message>
    <message>
        <source>A RechargeDesk distributor: a sale whose answer is lost is sent again with the same reference (never sold twice) and its status is asked.</source>
        <translation>RechargeDesk डिस्ट्रीब्यूटर: जिस बिक्री का जवाब खो जाए वह उसी रेफ़रेंस से दोबारा भेजी जाती है (दो बार कभी नहीं बिकती) और उसकी स्थिति पूछी जाती है।</translation>
    </message>
    <message>
        <source>What it offers is read at the next Check.</source>
        <translation>यह क्या देता है, यह अगली बार &quot;जाँचें&quot; पर पढ़ा जाएगा।</translation>
    </message>
    <message>
        <source>Give it this address for its webhooks, with its webhook password: %1 (use the address by which it reaches this server).</source>
        <translation>इसे वेबहुक के लिए यह पता दें, इसके वेबहुक पासवर्ड के साथ: %1 (वह पता इस्तेमाल करें जिससे यह इस सर्वर तक पहुँचता है)।</translation>
    </message>
    <message>
        <source>Added %1 (%2). Press Check to try its credential now.</source>
        <translation>%1 जोड़ा गया (%2)। इसका क्रेडेंशियल अभी आज़माने के लिए &quot;जाँचें&quot; दबाएँ।</translation>
    </message>
    <message>
        <source>Saved %1 (%2). Press Check to try its credential now.</source>
        <translation>%1 सेव हुआ (%2)। इसका क्रेडेंशियल अभी आज़माने के लिए &quot;जाँचें&quot; दबाएँ।</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>%1 की जाँच हो रही है…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Remove the upstream</source>
        <translation>अपस्ट्रीम हटाएँ</translation>
    </message>
    <message>
        <source>Remove the upstream %1 (%2)? Its live sales go to the other upstreams, or are refused when none is left; sales already waiting on it keep being followed.</source>
        <translation>अपस्ट्रीम %1 (%2) हटाएँ? इसकी लाइव बिक्री दूसरे अपस्ट्रीम को जाएगी, या कोई न बचे तो नहीं होगी; जो बिक्री पहले से इसके जवाब का इंतज़ार कर रही हैं, उन पर नज़र रखी जाती रहेगी।</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>%1 हटाएँ</translation>
    </message>
    <message>
        <source>Removed %1.</source>
        <translation>%1 हटा दिया गया।</translation>
    </message>
</context>
<context>
    <name>UsersPage</name>
    <message>
        <source>Admin</source>
        <translation>एडमिन</translation>
    </message>
    <message>
        <source>Clerk</source>
        <translation>क्लर्क</translation>
    </message>
    <message>
        <source>Added a user</source>
        <translation>उपयोगकर्ता जोड़ा</translation>
    </message>
    <message>
        <source>Reset a PIN</source>
        <translation>PIN बदला</translation>
    </message>
    <message>
        <source>Deactivated a user</source>
        <translation>उपयोगकर्ता निष्क्रिय किया</translation>
    </message>
    <message>
        <source>Locked after wrong PINs</source>
        <translation>ग़लत PIN के बाद लॉक हुआ</translation>
    </message>
    <message>
        <source>Changed shop settings</source>
        <translation>दुकान की सेटिंग्स बदलीं</translation>
    </message>
    <message>
        <source>Created an API key</source>
        <translation>API कुंजी बनाई</translation>
    </message>
    <message>
        <source>Revoked an API key</source>
        <translation>API कुंजी बंद की</translation>
    </message>
    <message>
        <source>Topped up the wallet</source>
        <translation>वॉलेट टॉप-अप किया</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>नाम</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>भूमिका</translation>
    </message>
    <message>
        <source>State</source>
        <translation>स्थिति</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>सक्रिय</translation>
    </message>
    <message>
        <source>Deactivated</source>
        <translation>निष्क्रिय</translation>
    </message>
    <message>
        <source>When (IST)</source>
        <translation>कब (IST)</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>किसने</translation>
    </message>
    <message>
        <source>What</source>
        <translation>क्या</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>ब्योरा</translation>
    </message>
    <message>
        <source>&amp;Add user</source>
        <translation>उपयोगकर्ता जोड़ें (&amp;A)</translation>
    </message>
    <message>
        <source>Re&amp;set PIN</source>
        <translation>PIN बदलें (&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Deactivate…</source>
        <translation>निष्क्रिय करें (&amp;D)…</translation>
    </message>
    <message>
        <source>Name used to sign in</source>
        <translation>साइन इन करने का नाम</translation>
    </message>
    <message>
        <source>Clerk: sells at the counter</source>
        <translation>क्लर्क: काउंटर पर बेचता है</translation>
    </message>
    <message>
        <source>Admin: also the back office</source>
        <translation>एडमिन: बैक ऑफ़िस भी</translation>
    </message>
    <message>
        <source>PIN</source>
        <translation>PIN</translation>
    </message>
    <message>
        <source>PIN again</source>
        <translation>PIN दोबारा</translation>
    </message>
    <message>
        <source>Add a person</source>
        <translation>व्यक्ति जोड़ें</translation>
    </message>
    <message>
        <source>Selected person</source>
        <translation>चुना हुआ व्यक्ति</translation>
    </message>
    <message>
        <source>New PIN</source>
        <translation>नया PIN</translation>
    </message>
    <message>
        <source>People who can sign in</source>
        <translation>जो साइन इन कर सकते हैं</translation>
    </message>
    <message>
        <source>Audit log (newest first)</source>
        <translation>ऑडिट लॉग (नया सबसे ऊपर)</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>उपयोगकर्ता</translation>
    </message>
    <message>
        <source>Could not load: %1</source>
        <translation>लोड नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>Choose a person in the list to reset their PIN or deactivate them.</source>
        <translation>PIN बदलने या निष्क्रिय करने के लिए सूची में से कोई व्यक्ति चुनें।</translation>
    </message>
    <message>
        <source>%1 — %2%3</source>
        <translation>%1 — %2%3</translation>
    </message>
    <message>
        <source> (deactivated)</source>
        <translation> (निष्क्रिय)</translation>
    </message>
    <message>
        <source>Enter the name this person signs in with.</source>
        <translation>वह नाम लिखें जिससे यह व्यक्ति साइन इन करेगा।</translation>
    </message>
    <message>
        <source>The two PINs differ. Type the same PIN twice.</source>
        <translation>दोनों PIN अलग हैं। एक ही PIN दो बार लिखें।</translation>
    </message>
    <message>
        <source>%1 can now sign in as %2.</source>
        <translation>अब %1, %2 के रूप में साइन इन कर सकते हैं।</translation>
    </message>
    <message>
        <source>New PIN set for %1.</source>
        <translation>%1 का नया PIN सेट हो गया।</translation>
    </message>
    <message>
        <source>Deactivate</source>
        <translation>निष्क्रिय करें</translation>
    </message>
    <message>
        <source>Deactivate %1?
They can no longer sign in at any terminal. Their past sales stay in the history.</source>
        <translation>%1 को निष्क्रिय करें?
वे किसी भी टर्मिनल पर साइन इन नहीं कर पाएँगे। उनकी पुरानी बिक्री इतिहास में बनी रहेगी।</translation>
    </message>
    <message>
        <source>This is the last active admin. Add another admin first, so someone can still open the back office.</source>
        <translation>यह आख़िरी सक्रिय एडमिन है। पहले कोई दूसरा एडमिन जोड़ें, ताकि कोई न कोई बैक ऑफ़िस खोल सके।</translation>
    </message>
    <message>
        <source>%1 is deactivated.</source>
        <translation>%1 को निष्क्रिय कर दिया गया।</translation>
    </message>
    <message>
        <source>Set up the shop</source>
        <translation>दुकान सेट की</translation>
    </message>
    <message>
        <source>An admin&apos;s PIN must be 6 to 8 digits.</source>
        <translation>एडमिन का PIN 6 से 8 अंकों का होना चाहिए।</translation>
    </message>
    <message>
        <source>A clerk&apos;s PIN must be 4 to 8 digits.</source>
        <translation>क्लर्क का PIN 4 से 8 अंकों का होना चाहिए।</translation>
    </message>
    <message>
        <source>clerk 4-8, admin 6-8 digits</source>
        <translation>क्लर्क 4-8, एडमिन 6-8 अंक</translation>
    </message>
</context>
<context>
    <name>VerifyPage</name>
    <message>
        <source>Verify customer (Aadhaar OTP)</source>
        <translation>ग्राहक सत्यापन (आधार OTP)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Read this to the customer before you start.&lt;/b&gt;&lt;br&gt;To confirm who you are, this shop sends your Aadhaar number to UIDAI, which sends a one-time password (OTP) to the mobile number linked with your Aadhaar. Nothing else is shared, and it is used only for this check. Your Aadhaar number is not stored at this shop: afterwards only its last 4 digits are shown, as XXXX XXXX 1234.</source>
        <translation>&lt;b&gt;शुरू करने से पहले यह ग्राहक को पढ़कर सुनाएँ।&lt;/b&gt;&lt;br&gt;आपकी पहचान की पुष्टि के लिए यह दुकान आपका आधार नंबर UIDAI को भेजती है, जो आपके आधार से जुड़े मोबाइल नंबर पर एक वन-टाइम पासवर्ड (OTP) भेजता है। इसके अलावा कुछ भी साझा नहीं किया जाता, और इसका इस्तेमाल सिर्फ़ इसी जाँच के लिए होता है। आपका आधार नंबर इस दुकान पर नहीं रखा जाता: बाद में सिर्फ़ उसके आख़िरी 4 अंक दिखते हैं (जैसे XXXX XXXX 1234)।</translation>
    </message>
    <message>
        <source>The customer agrees to verify their identity with Aadhaar OTP</source>
        <translation>ग्राहक आधार OTP से अपनी पहचान की पुष्टि के लिए सहमत है</translation>
    </message>
    <message>
        <source>The captcha appears here</source>
        <translation>कैप्चा यहाँ दिखेगा</translation>
    </message>
    <message>
        <source>New captcha</source>
        <translation>नया कैप्चा</translation>
    </message>
    <message>
        <source>Draw a new captcha picture (starts a new verification)</source>
        <translation>नई कैप्चा तस्वीर बनाएँ (नया सत्यापन शुरू होगा)</translation>
    </message>
    <message>
        <source>6 digits</source>
        <translation>6 अंक</translation>
    </message>
    <message>
        <source>Send OTP to the customer</source>
        <translation>ग्राहक को OTP भेजें</translation>
    </message>
    <message>
        <source>Aadhaar number</source>
        <translation>आधार नंबर</translation>
    </message>
    <message>
        <source>Captcha</source>
        <translation>कैप्चा</translation>
    </message>
    <message>
        <source>Digits in the picture</source>
        <translation>तस्वीर में दिखे अंक</translation>
    </message>
    <message>
        <source>Ask the customer for the 6-digit OTP sent by SMS</source>
        <translation>ग्राहक से SMS में आया 6 अंकों का OTP पूछें</translation>
    </message>
    <message>
        <source>6-digit OTP</source>
        <translation>6 अंकों का OTP</translation>
    </message>
    <message>
        <source>Verify OTP</source>
        <translation>OTP जाँचें</translation>
    </message>
    <message>
        <source>Resend OTP</source>
        <translation>OTP दोबारा भेजें</translation>
    </message>
    <message>
        <source>Start over</source>
        <translation>फिर से शुरू करें</translation>
    </message>
    <message>
        <source>✔ Customer verified</source>
        <translation>✔ ग्राहक सत्यापित</translation>
    </message>
    <message>
        <source>Verify another customer</source>
        <translation>दूसरे ग्राहक का सत्यापन करें</translation>
    </message>
    <message>
        <source>SANDBOX — SMS outbox</source>
        <translation>सैंडबॉक्स — SMS आउटबॉक्स</translation>
    </message>
    <message>
        <source>Test mode: no real SMS is sent. The messages a customer would receive appear here, newest first.</source>
        <translation>टेस्ट मोड: कोई असली SMS नहीं भेजा जाता। ग्राहक को जो मैसेज मिलते, वे यहाँ दिखते हैं, नया सबसे ऊपर।</translation>
    </message>
    <message>
        <source>Refresh outbox</source>
        <translation>आउटबॉक्स रीफ़्रेश करें</translation>
    </message>
    <message>
        <source>12 digits, as printed on the Aadhaar card (grouped 4-4-4 as you type).</source>
        <translation>12 अंक, जैसे आधार कार्ड पर छपे हैं (लिखते समय 4-4-4 में बँट जाते हैं)।</translation>
    </message>
    <message>
        <source>✘ An Aadhaar number never starts with 0 or 1. Check the first digit.</source>
        <translation>✘ आधार नंबर कभी 0 या 1 से शुरू नहीं होता। पहला अंक जाँचें।</translation>
    </message>
    <message>
        <source>%1 of 12 digits</source>
        <translation>12 में से %1 अंक</translation>
    </message>
    <message>
        <source>✔ Valid Aadhaar number (check digit correct)</source>
        <translation>✔ सही आधार नंबर (चेक डिजिट सही है)</translation>
    </message>
    <message>
        <source>✘ Not a valid Aadhaar number: the check digit does not match. Check every digit against the card.</source>
        <translation>✘ यह सही आधार नंबर नहीं है: चेक डिजिट मेल नहीं खाता। हर अंक कार्ड से मिलाएँ।</translation>
    </message>
    <message>
        <source>Loading captcha…</source>
        <translation>कैप्चा लोड हो रहा है…</translation>
    </message>
    <message>
        <source>No captcha</source>
        <translation>कोई कैप्चा नहीं</translation>
    </message>
    <message>
        <source>Could not start the verification: %1</source>
        <translation>सत्यापन शुरू नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>The captcha could not be loaded. Press New captcha.</source>
        <translation>कैप्चा लोड नहीं हो सका। &quot;नया कैप्चा&quot; दबाएँ।</translation>
    </message>
    <message>
        <source>Type all 12 digits of the Aadhaar number.</source>
        <translation>आधार नंबर के सभी 12 अंक लिखें।</translation>
    </message>
    <message>
        <source>This is not a valid Aadhaar number.</source>
        <translation>यह सही आधार नंबर नहीं है।</translation>
    </message>
    <message>
        <source>Type the 6 digits shown in the captcha picture.</source>
        <translation>कैप्चा तस्वीर में दिखे 6 अंक लिखें।</translation>
    </message>
    <message>
        <source>The captcha is still loading. Wait a moment.</source>
        <translation>कैप्चा अभी लोड हो रहा है। थोड़ा रुकें।</translation>
    </message>
    <message>
        <source>An OTP was sent a moment ago. Resend is possible again in %1.</source>
        <translation>OTP अभी-अभी भेजा गया है। %1 बाद दोबारा भेज सकते हैं।</translation>
    </message>
    <message>
        <source>Too many OTPs for this Aadhaar number. Try again in %1.</source>
        <translation>इस आधार नंबर पर बहुत ज़्यादा OTP भेजे जा चुके हैं। %1 बाद फिर कोशिश करें।</translation>
    </message>
    <message>
        <source>Three wrong captcha answers closed this verification. Here is a new captcha.</source>
        <translation>कैप्चा के तीन ग़लत जवाबों से यह सत्यापन बंद हो गया। यह रहा नया कैप्चा।</translation>
    </message>
    <message>
        <source>The captcha answer is wrong. Look at the picture again (%1).</source>
        <translation>कैप्चा का जवाब ग़लत है। तस्वीर फिर से देखें (%1)।</translation>
    </message>
    <message>
        <source>The captcha expired after 10 minutes. Here is a new one.</source>
        <translation>कैप्चा 10 मिनट बाद बेकार हो गया। यह रहा नया।</translation>
    </message>
    <message>
        <source>No mobile number is linked with this Aadhaar, so no OTP can be sent. The customer must link a mobile number at an Aadhaar enrolment centre.</source>
        <translation>इस आधार से कोई मोबाइल नंबर जुड़ा नहीं है, इसलिए OTP नहीं भेजा जा सकता। ग्राहक को आधार केंद्र पर जाकर मोबाइल नंबर जुड़वाना होगा।</translation>
    </message>
    <message>
        <source>This verification can no longer continue (%1). Start again with the new captcha.</source>
        <translation>यह सत्यापन अब आगे नहीं बढ़ सकता (%1)। नए कैप्चा के साथ फिर से शुरू करें।</translation>
    </message>
    <message>
        <source>Type the 6-digit OTP from the customer&apos;s SMS.</source>
        <translation>ग्राहक के SMS से 6 अंकों का OTP लिखें।</translation>
    </message>
    <message>
        <source>Three wrong OTPs closed this verification. Start again with the new captcha.</source>
        <translation>तीन ग़लत OTP से यह सत्यापन बंद हो गया। नए कैप्चा के साथ फिर से शुरू करें।</translation>
    </message>
    <message>
        <source>Wrong OTP. Ask the customer to read it again (%1).</source>
        <translation>ग़लत OTP। ग्राहक से इसे दोबारा पढ़ने को कहें (%1)।</translation>
    </message>
    <message>
        <source>The OTP has expired. Press Resend OTP to send a new one.</source>
        <translation>OTP की समय-सीमा ख़त्म हो गई। नया भेजने के लिए &quot;OTP दोबारा भेजें&quot; दबाएँ।</translation>
    </message>
    <message>
        <source>Identity confirmed by Aadhaar OTP at %1. The full number has been cleared from this screen.</source>
        <translation>%1 पर आधार OTP से पहचान की पुष्टि हुई। पूरा नंबर इस स्क्रीन से हटा दिया गया है।</translation>
    </message>
    <message>
        <source>OTP valid for %1</source>
        <translation>OTP की वैधता: %1 बाकी</translation>
    </message>
    <message>
        <source>OTP expired — press Resend OTP</source>
        <translation>OTP की समय-सीमा ख़त्म — &quot;OTP दोबारा भेजें&quot; दबाएँ</translation>
    </message>
    <message>
        <source>Resend in %1</source>
        <translation>%1 बाद दोबारा भेजें</translation>
    </message>
    <message>
        <source>check the answer</source>
        <translation>जवाब जाँचें</translation>
    </message>
    <message>
        <source>1 try left</source>
        <translation>1 प्रयास बाकी</translation>
    </message>
    <message>
        <source>%1 tries left</source>
        <translation>%1 प्रयास बाकी</translation>
    </message>
    <message>
        <source>The SMS outbox can be read with an admin test key only.</source>
        <translation>SMS आउटबॉक्स सिर्फ़ एडमिन टेस्ट कुंजी से पढ़ा जा सकता है।</translation>
    </message>
    <message>
        <source>Could not read the SMS outbox: %1</source>
        <translation>SMS आउटबॉक्स पढ़ा नहीं जा सका: %1</translation>
    </message>
    <message>
        <source>%1 · to %2
%3</source>
        <translation>%1 · %2 को
%3</translation>
    </message>
    <message>
        <source>No messages yet.</source>
        <translation>अभी कोई मैसेज नहीं।</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>%1 पर अपडेट हुआ</translation>
    </message>
</context>
<context>
    <name>VoucherPage</name>
    <message>
        <source>Google Play gift voucher</source>
        <translation>Google Play गिफ़्ट वाउचर</translation>
    </message>
    <message>
        <source>Optional: the code is also sent here</source>
        <translation>ज़रूरी नहीं: कोड यहाँ भी भेजा जाता है</translation>
    </message>
    <message>
        <source>Customer e-mail</source>
        <translation>ग्राहक का ई-मेल</translation>
    </message>
</context>
<context>
    <name>WalletPage</name>
    <message>
        <source>Counter (API)</source>
        <translation>काउंटर (API)</translation>
    </message>
    <message>
        <source>Top-up</source>
        <translation>टॉप-अप</translation>
    </message>
    <message>
        <source>Sale</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Refund</source>
        <translation>रिफ़ंड</translation>
    </message>
    <message>
        <source>Opening balance</source>
        <translation>शुरुआती बैलेंस</translation>
    </message>
    <message>
        <source>When (IST)</source>
        <translation>कब (IST)</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>प्रकार</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>राशि</translation>
    </message>
    <message>
        <source>Transaction</source>
        <translation>ट्रांजैक्शन</translation>
    </message>
    <message>
        <source>By</source>
        <translation>किसने</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>नोट</translation>
    </message>
    <message>
        <source>&amp;Top up</source>
        <translation>टॉप-अप करें (&amp;T)</translation>
    </message>
    <message>
        <source>Sa&amp;ve threshold</source>
        <translation>सीमा सेव करें (&amp;V)</translation>
    </message>
    <message>
        <source>Test wallet: sandbox money for trying the terminal. Top-ups are free.</source>
        <translation>टेस्ट वॉलेट: टर्मिनल आज़माने के लिए सैंडबॉक्स पैसे। टॉप-अप मुफ़्त हैं।</translation>
    </message>
    <message>
        <source>Live wallet: every top-up is recorded with who did it and why.</source>
        <translation>लाइव वॉलेट: हर टॉप-अप के साथ दर्ज होता है कि किसने और क्यों किया।</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>रीफ़्रेश करें (&amp;R)</translation>
    </message>
    <message>
        <source>Rupees, e.g. 5000</source>
        <translation>रुपये, जैसे 5000</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>ज़रूरी नहीं</translation>
    </message>
    <message>
        <source>Required: why, e.g. cash deposit slip 4411</source>
        <translation>ज़रूरी: क्यों, जैसे नकद जमा पर्ची 4411</translation>
    </message>
    <message>
        <source>Test wallet balance</source>
        <translation>टेस्ट वॉलेट बैलेंस</translation>
    </message>
    <message>
        <source>Wallet balance</source>
        <translation>वॉलेट बैलेंस</translation>
    </message>
    <message>
        <source>Amount (₹)</source>
        <translation>राशि (₹)</translation>
    </message>
    <message>
        <source>Top up</source>
        <translation>टॉप-अप</translation>
    </message>
    <message>
        <source>Rupees</source>
        <translation>रुपये</translation>
    </message>
    <message>
        <source>Low-balance warning</source>
        <translation>कम बैलेंस की चेतावनी</translation>
    </message>
    <message>
        <source>All entries</source>
        <translation>सभी एंट्री</translation>
    </message>
    <message>
        <source>Top-ups</source>
        <translation>टॉप-अप</translation>
    </message>
    <message>
        <source>Sales</source>
        <translation>बिक्री</translation>
    </message>
    <message>
        <source>Refunds</source>
        <translation>रिफ़ंड</translation>
    </message>
    <message>
        <source>Search note, person, transaction id…</source>
        <translation>नोट, व्यक्ति, ट्रांजैक्शन ID खोजें…</translation>
    </message>
    <message>
        <source>Ledger (newest first)</source>
        <translation>खाता (नया सबसे ऊपर)</translation>
    </message>
    <message>
        <source>Filters apply to the entries loaded so far; scroll down to load older ones.</source>
        <translation>फ़िल्टर अब तक लोड हुई एंट्री पर लागू होते हैं; पुरानी एंट्री के लिए नीचे स्क्रॉल करें।</translation>
    </message>
    <message>
        <source>Wallet</source>
        <translation>वॉलेट</translation>
    </message>
    <message>
        <source>The ledger could not be loaded: %1</source>
        <translation>खाता लोड नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>Enter the top-up in whole rupees, e.g. 5000.</source>
        <translation>टॉप-अप पूरे रुपयों में लिखें (जैसे 5000)।</translation>
    </message>
    <message>
        <source>A live top-up needs a note saying why (e.g. the deposit slip).</source>
        <translation>लाइव टॉप-अप के लिए कारण का नोट ज़रूरी है (जैसे जमा पर्ची)।</translation>
    </message>
    <message>
        <source>Live top-up</source>
        <translation>लाइव टॉप-अप</translation>
    </message>
    <message>
        <source>Add %1 to the LIVE wallet?
Note: %2
This is recorded with your name.</source>
        <translation>लाइव वॉलेट में %1 जोड़ें?
नोट: %2
यह आपके नाम के साथ दर्ज होगा।</translation>
    </message>
    <message>
        <source>Added %1. New balance %2.</source>
        <translation>%1 जुड़ गए। नया बैलेंस: %2</translation>
    </message>
    <message>
        <source>Enter the threshold in whole rupees (0 turns the warning off).</source>
        <translation>सीमा पूरे रुपयों में लिखें (0 लिखने पर चेतावनी बंद हो जाती है)।</translation>
    </message>
    <message>
        <source>Saved: warn below %1.</source>
        <translation>सेव हो गया: %1 से कम होने पर चेतावनी।</translation>
    </message>
    <message>
        <source>The status bar turns red when the balance (or the distributor’s figure for us) falls below this many rupees.</source>
        <translation>बैलेंस (या डिस्ट्रीब्यूटर के हिसाब से हमारा बैलेंस) इतने रुपयों से कम होने पर स्टेटस बार लाल हो जाता है।</translation>
    </message>
    <message>
        <source>&amp;Ledger</source>
        <translation>खाता (&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Distributor</source>
        <translation>डिस्ट्रीब्यूटर (&amp;D)</translation>
    </message>
</context>
<context>
    <name>WebhookDeliveriesPane</name>
    <message>
        <source>Retrying</source>
        <translation>फिर कोशिश जारी</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>पहुँच गया</translation>
    </message>
    <message>
        <source>Gave up</source>
        <translation>छोड़ दिया</translation>
    </message>
    <message>
        <source>OK %1</source>
        <translation>OK %1</translation>
    </message>
    <message>
        <source>HTTP %1 %2</source>
        <translation>HTTP %1 %2</translation>
    </message>
    <message>
        <source>When (IST)</source>
        <translation>कब (IST)</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>इवेंट</translation>
    </message>
    <message>
        <source>Transaction</source>
        <translation>ट्रांजैक्शन</translation>
    </message>
    <message>
        <source>Try</source>
        <translation>प्रयास</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>जवाब</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>समय</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Event state</source>
        <translation>इवेंट की स्थिति</translation>
    </message>
    <message>
        <source>Next try</source>
        <translation>अगला प्रयास</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Re&amp;deliver selected</source>
        <translation>चुना हुआ दोबारा भेजें (&amp;D)</translation>
    </message>
    <message>
        <source>Any event state</source>
        <translation>इवेंट की कोई भी स्थिति</translation>
    </message>
    <message>
        <source>Any answer</source>
        <translation>कोई भी जवाब</translation>
    </message>
    <message>
        <source>Accepted (2xx)</source>
        <translation>स्वीकार (2xx)</translation>
    </message>
    <message>
        <source>Not accepted</source>
        <translation>स्वीकार नहीं</translation>
    </message>
    <message>
        <source>Transaction id</source>
        <translation>ट्रांजैक्शन ID</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>रीफ़्रेश करें (&amp;R)</translation>
    </message>
    <message>
        <source>Could not load: %1</source>
        <translation>लोड नहीं हो सका: %1</translation>
    </message>
    <message>
        <source>This event is still being retried; it can be sent again once it is delivered or given up.</source>
        <translation>यह इवेंट अभी फिर से भेजा जा रहा है; पहुँचने या छोड़ दिए जाने के बाद ही इसे दोबारा भेजा जा सकता है।</translation>
    </message>
    <message>
        <source>Event %1 will be sent again now.</source>
        <translation>इवेंट %1 अभी दोबारा भेजा जाएगा।</translation>
    </message>
</context>
<context>
    <name>WebhookEndpointPane</name>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>https://example.com/recharge-events</source>
        <translation>https://example.com/recharge-events</translation>
    </message>
    <message>
        <source>Use built-in &amp;inbox</source>
        <translation>बिल्ट-इन इनबॉक्स इस्तेमाल करें (&amp;I)</translation>
    </message>
    <message>
        <source>Sends test events to this server&apos;s own inbox, shown in the Inbox tab below.</source>
        <translation>टेस्ट इवेंट इस सर्वर के अपने इनबॉक्स में भेजता है, जो नीचे &quot;बिल्ट-इन इनबॉक्स&quot; टैब में दिखता है।</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>पासवर्ड</translation>
    </message>
    <message>
        <source>Sent in every event as webhook_password</source>
        <translation>हर इवेंट में webhook_password के रूप में भेजा जाता है</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>दिखाएँ</translation>
    </message>
    <message>
        <source>&amp;Save endpoint</source>
        <translation>एंडपॉइंट सेव करें (&amp;S)</translation>
    </message>
    <message>
        <source>Send &amp;test delivery</source>
        <translation>टेस्ट डिलीवरी भेजें (&amp;T)</translation>
    </message>
    <message>
        <source>R&amp;otate secret…</source>
        <translation>सीक्रेट बदलें (&amp;O)…</translation>
    </message>
    <message>
        <source>No webhook endpoint yet. Enter the URL that should receive sale events and a password, then save.</source>
        <translation>अभी कोई वेबहुक एंडपॉइंट नहीं है। बिक्री के इवेंट पाने वाला URL और एक पासवर्ड लिखें, फिर सेव करें।</translation>
    </message>
    <message>
        <source>Could not read the endpoint: %1</source>
        <translation>एंडपॉइंट पढ़ा नहीं जा सका: %1</translation>
    </message>
    <message>
        <source>Events go to this server&apos;s built-in inbox (the test-mode default).</source>
        <translation>इवेंट इस सर्वर के बिल्ट-इन इनबॉक्स में जाते हैं (टेस्ट मोड में डिफ़ॉल्ट)।</translation>
    </message>
    <message>
        <source>Events go to %1</source>
        <translation>इवेंट %1 पर जाते हैं</translation>
    </message>
    <message>
        <source>DISABLED: %1. Save the endpoint again to turn it back on.</source>
        <translation>बंद है (%1)। इसे फिर चालू करने के लिए एंडपॉइंट दोबारा सेव करें।</translation>
    </message>
    <message>
        <source>The previous secret keeps signing until %1 (IST).</source>
        <translation>पुराना सीक्रेट %1 (IST) तक साइन करता रहेगा।</translation>
    </message>
    <message>
        <source>Webhook signing secret</source>
        <translation>वेबहुक साइनिंग सीक्रेट</translation>
    </message>
    <message>
        <source>Events to %1 are signed with this secret (webhook-signature header).</source>
        <translation>%1 को जाने वाले इवेंट इस सीक्रेट से साइन होते हैं (webhook-signature हेडर)।</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>सीक्रेट</translation>
    </message>
    <message>
        <source>Enter the http:// or https:// address that receives events.</source>
        <translation>इवेंट पाने वाला http:// या https:// पता लिखें।</translation>
    </message>
    <message>
        <source>Enter a password; the receiver checks it in every event.</source>
        <translation>पासवर्ड लिखें; पाने वाला इसे हर इवेंट में जाँचता है।</translation>
    </message>
    <message>
        <source>Saved. Press &quot;Send test delivery&quot; to check the receiver.</source>
        <translation>सेव हो गया। पाने वाले को जाँचने के लिए &quot;टेस्ट डिलीवरी भेजें&quot; दबाएँ।</translation>
    </message>
    <message>
        <source>Rotate secret</source>
        <translation>सीक्रेट बदलें</translation>
    </message>
    <message>
        <source>Make a new signing secret?
The old one keeps signing for 24 hours, so the receiver can switch over.</source>
        <translation>नया साइनिंग सीक्रेट बनाएँ?
पुराना 24 घंटे तक साइन करता रहेगा, ताकि पाने वाला नए पर आ सके।</translation>
    </message>
    <message>
        <source>Rotate</source>
        <translation>बदलें</translation>
    </message>
    <message>
        <source>New secret made.</source>
        <translation>नया सीक्रेट बन गया।</translation>
    </message>
    <message>
        <source>Test event %1 queued; watch the delivery log below.</source>
        <translation>टेस्ट इवेंट %1 कतार में है; नीचे डिलीवरी लॉग देखें।</translation>
    </message>
</context>
<context>
    <name>WebhookInboxPane</name>
    <message>
        <source>Received (IST)</source>
        <translation>मिला (IST)</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>इवेंट</translation>
    </message>
    <message>
        <source>Transaction</source>
        <translation>ट्रांजैक्शन</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>मिला</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>webhook-id</source>
        <translation>webhook-id</translation>
    </message>
    <message>
        <source>Choose a message to see the body the server received.</source>
        <translation>सर्वर को मिला पूरा मैसेज देखने के लिए कोई मैसेज चुनें।</translation>
    </message>
    <message>
        <source>What this server&apos;s built-in inbox received (test mode): each event once, with how many times it arrived. Receivers must accept repeats of the same webhook-id.</source>
        <translation>इस सर्वर के बिल्ट-इन इनबॉक्स में क्या आया (टेस्ट मोड): हर इवेंट एक बार, साथ में यह कि वह कितनी बार आया। पाने वाले को एक ही webhook-id दोबारा आने पर भी उसे स्वीकार करना चाहिए।</translation>
    </message>
    <message>
        <source>Could not load: %1</source>
        <translation>लोड नहीं हो सका: %1</translation>
    </message>
</context>
<context>
    <name>WebhooksPage</name>
    <message>
        <source>Delivery log</source>
        <translation>डिलीवरी लॉग</translation>
    </message>
    <message>
        <source>Built-in inbox</source>
        <translation>बिल्ट-इन इनबॉक्स</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>वेबहुक</translation>
    </message>
</context>
</TS>
