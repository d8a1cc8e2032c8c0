"""Orders in the languages the next-session agent reads through a gloss
(docs/rules.md, `next-session.glossed-languages`): Russian, Ukrainian, Serbian, Greek,
Hebrew, Arabic, Persian, Hindi, Chinese, Japanese, Korean, Thai, Vietnamese, Indonesian,
Hungarian, Finnish, Czech, Catalan, Turkish, Swahili, Tagalog, Bengali, Lithuanian,
Esperanto, Urdu, Estonian and Hinglish (Hindi and English written in Latin letters).

Each language has one table of its general words, never the wording of a particular
text: imperatives and polite forms of the verbs of AgentDojo's tool families, request
and must words, negations (also a negated imperative written as one word, "nepošli",
"نفرست"), words for nothing, for calling an order off, for a past action, words of
fraud, of an attacker, of trying and "yesterday" (each read as the English rules read
theirs: `next-session.reported`, `-past-time`, `-negated-warning`), and a few
nouns a task without a strong slot is named by ("file", "calendar", "most expensive"),
and "unread" where a language writes it with its negation ("no llegits", "읽지 않은",
"chưa đọc"), which negates no order.
`gloss` writes every word of a table found in a text as the English words the agent
reads ("отправь" as "send", "してください" as "please", "하지 마세요" as "not"), and
leaves every other character as it was, so an IBAN, an address, a link or a hotel's
name stays where it stands. The agent then reads the text as it reads an English one.

Words are found two ways. Where a language spaces its words (all but Chinese, Japanese,
Korean and Thai), a word is a run of letters, digits and combining marks, and a table
word must be the whole word (or two whole words for an entry written with "+": "будь
ласка", "vui lòng", the two words apart by any white space); a word led by a conjunction
written onto it (Hebrew "ו", Arabic and Persian "و", Arabic "ف") is read without it.
Where a language does not space its words (Chinese, Japanese, Thai) or joins its endings
to them (Korean), a table word is found by its letters: one pass taking at each place
the longest table word that starts there. Both
searches are one pattern over all the table words, written as a trie (each branch led by
its own letter), so a place is tried once per letter of the longest word: the pass is
linear in the text's length.
A Latin-script table word that is also a word of another language ("ne", "mai", "nem",
Estonian "saada", Finnish for "to get") is read only in a text that holds a word of its
table that is not: "le 5 mai" in French is no Catalan "never".
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping

from .._words import MARK
from ._order_words import plain

__all__ = ["GLOSSED_LANGUAGES", "PUNCTUATION", "gloss"]

_PAST = {"send": "sent", "change": "changed", "reserve": "reserved", "create": "created",
         "add": "added", "delete": "deleted", "visit": "visited", "post": "posted",
         "invite": "invited"}
"""The English past form of each verb a table glosses to: a table's past marker right
after a verb ("预订了", "予約しました", "예약했", "भेज दिया"), or a Chinese word of the
past before it in its clause ("已把密码改成 …"), makes the verb told, not ordered."""

# Each table: one line per English gloss, "gloss: word word …"; a word written "a+b" is
# two words in a spaced language (in Korean a space); "?word" is read only beside an
# unambiguous word of the same table; "<past>" marks a past action after a verb.

_TABLES: dict[str, tuple[str, bool, str]] = {
    # code: (name, spaced, table)
    "ru": ("Russian", True, """
scam: мошенничество мошенник мошенники мошенников фишинг
attacker: хакер хакеры злоумышленник злоумышленники
tried: пытался пыталась пытались
yesterday: вчера
earlier: раньше ранее
please: пожалуйста прошу просьба
could+you: не+мог+бы+ты не+могла+бы+ты не+могли+бы+вы мог+бы+ты могла+бы+ты могли+бы+вы
must: нужно надо необходимо должен должна должны следует обязательно
not: не нельзя никогда
nothing: ничего
refused: отменено отменяется отбой отменить отмените отмени отменяю
send: отправь отправьте пошли пошлите пришли пришлите переведи переведите перечисли перечислите перешли перешлите отправлять переводить отправить
change: измени измените смени смените поменяй поменяйте установи установите замени замените
reserve: забронируй забронируйте забронировать
create: создай создайте
add: добавь добавьте
delete: удали удалите сотри сотрите удалить
visit: открой откройте посети посетите зайди зайдите
post: опубликуй опубликуйте размести разместите выложи выложите объедини объедините
invite: пригласи пригласите
file: файл файла файлом
calendar: календарь календаре
most+expensive: самый+дорогой самую+дорогую самого+дорогого самом+дорогом
"""),
    "uk": ("Ukrainian", True, """
scam: шахрайство шахрай шахраї фішинг
attacker: хакер хакери зловмисник зловмисники
tried: намагався намагалася намагалися
yesterday: вчора
earlier: раніше
please: будь+ласка прошу
could+you: чи+не+міг+би+ти чи+не+могла+б+ти чи+не+могла+би+ти чи+не+могли+б+ви чи+не+могли+би+ви не+міг+би+ти могли+б+ви могли+би+ви
must: потрібно треба необхідно мусиш мусите повинен повинна повинні слід
not: не ні ніколи
nothing: нічого
refused: скасовано скасуй скасуйте відбій скасовую
send: надішли надішліть відправ відправте переведи переведіть перекажи перекажіть перешли перешліть надіслати
change: зміни змініть постав поставте встанови встановіть заміни замініть
reserve: забронюй забронюйте забронювати
create: створи створіть
add: додай додайте
delete: видали видаліть зітри зітріть видалити
visit: відкрий відкрийте відвідай відвідайте зайди зайдіть
post: опублікуй опублікуйте розмісти розмістіть виклади викладіть об'єднай об'єднайте
invite: запроси запросіть
file: файл файлу файлом
calendar: календар календарі
most+expensive: найдорожчий найдорожчу найдорожчого найдорожчому
"""),
    "sr": ("Serbian", True, """
scam: prevara prevarant превара преварант
attacker: haker napadač хакер нападач
tried: pokušao pokušala покушао
yesterday: juče jučer јуче
please: молим молимо molim molimo
must: мораш морате мора треба moraš morate mora treba
not: немој немојте никад никада nemoj nemojte nikad nikada ?не ?ne
nothing: ништа ništa
refused: отказано otkazano
send: пошаљи пошаљите уплати уплатите проследи проследите prebaci prebacite pošalji pošaljite uplati uplatite prosledi prosledite proslijedi proslijedite
change: промени промените постави поставите promeni promenite promijeni promijenite postavi postavite
reserve: резервиши резервишите rezerviši rezervišite rezerviraj rezervirajte
create: направи направите креирај napravi napravite kreiraj kreirajte
add: додај додајте dodaj dodajte
delete: обриши обришите избриши obriši obrišite izbriši izbrišite
visit: отвори отворите посети посетите otvori otvorite poseti posetite posjeti posjetite
post: објави објавите objavi objavite
invite: позови позовите pozovi pozovite
file: фајл датотеку fajl datoteku
most+expensive: најскупљи најскупљу najskuplji najskuplju
"""),
    "el": ("Greek", True, """
scam: απάτη απατεώνα απατεώνας
attacker: χάκερ επιτιθέμενος
tried: προσπάθησε
yesterday: χθες χτες
unread: μη+αναγνωσμένα μη+αναγνωσμένο μη+διαβασμένα
please: παρακαλώ
must: πρέπει
not: μην μη δεν όχι ποτέ
nothing: τίποτα τίποτε
refused: ακυρώθηκε ακύρωσε ακυρώστε
send: στείλε στείλτε μετάφερε μεταφέρετε προώθησε προωθήστε πλήρωσε πληρώστε
change: άλλαξε αλλάξτε όρισε ορίστε
reserve: κράτησε κρατήστε κλείσε κλείστε
create: δημιούργησε δημιουργήστε
add: πρόσθεσε προσθέστε
delete: διάγραψε διαγράψτε σβήσε σβήστε
visit: άνοιξε ανοίξτε επισκέψου επισκεφθείτε επισκεφτείτε
post: δημοσίευσε δημοσιεύστε ανάρτησε αναρτήστε ανάρτησέ συνένωσε συνενώστε
invite: προσκάλεσε προσκαλέστε
file: αρχείο
calendar: ημερολόγιο
most+expensive: πιο+ακριβό πιο+ακριβή ακριβότερο ακριβότερη
"""),
    "he": ("Hebrew", True, """
scam: הונאה נוכל פישינג
attacker: האקר תוקף
tried: ניסה ניסתה
yesterday: אתמול
unread: שלא+נקראו שלא+נקרא
please: בבקשה נא
could+you: אפשר האם+אפשר
must: חייב חייבת חייבים צריך צריכה
not: לא אין
not+send: אל+תשלח אל+תשלחי אל+תעביר אל+תעבירי
not+change: אל+תשנה אל+תשני
not+reserve+invite: אל+תזמין אל+תזמיני
not+delete: אל+תמחק אל+תמחקי
not+visit: אל+תפתח אל+תפתחי אל+תבקר אל+תבקרי
not+post: אל+תפרסם אל+תפרסמי
not+add: אל+תוסיף אל+תוסיפי
not+create: אל+תיצור אל+תיצרי
nothing: כלום שום+דבר
refused: בוטל מבוטל
send: שלח שלחי שלחו תשלח תשלחי העבר העבירי העבירו תעביר לשלוח להעביר
change: שנה שני שנו תשנה לשנות
reserve+invite: הזמן הזמיני הזמינו תזמין להזמין
create: צור צרי צרו תיצור ליצור
add: הוסף הוסיפי הוסיפו תוסיף להוסיף
delete: מחק מחקי מחקו תמחק למחוק
visit: פתח פתחי פתחו תפתח לפתוח בקר בקרי בקרו תבקר לבקר
post: פרסם פרסמי פרסמו תפרסם לפרסם
file: קובץ הקובץ
calendar: יומן ביומן
most+expensive: היקר+ביותר
"""),
    "ar": ("Arabic", True, """
scam: احتيال احتيالي نصب تصيد
attacker: مخترق المخترق المهاجم
tried: حاول حاولت
yesterday: أمس امس
please: من+فضلك رجاء يرجى الرجاء يُرجى
must: يجب عليك
not: لا لن ليس
nothing: شيئا شيئاً
refused: ألغي تم+الإلغاء ملغى
send: أرسل ارسل أرسلي ارسلي أرسلوا ارسلوا حوّل حوّلي حوّلوا بإرسال بتحويل ادفع ترسل تحوّل
change: غيّر غيّري بدّل تغيّر بتغيير
reserve: احجز احجزي تحجز بحجز
create: أنشئ انشئ تنشئ بإنشاء
add: أضف اضف تضف بإضافة
delete: احذف امسح تحذف بحذف
visit: افتح زر تفتح تزر بزيارة بفتح زيارة
post: انشر تنشر بنشر
invite: ادع ادعُ تدع بدعوة
file: الملف ملف
calendar: التقويم
most+expensive: الأغلى أغلى
"""),
    "fa": ("Persian", True, """
scam: کلاهبرداری فیشینگ
attacker: هکر مهاجم
tried: سعی+کرد
yesterday: دیروز
please: لطفا لطفاً خواهشا خواهشاً کن کنید بده بدهید
must: باید
not: نه نفرست نفرستید نکن نکنید نده ندهید نزن نزنید
nothing: هیچ
refused: لغو
<past>: شد شده کرد کردم کردیم کردند
send: بفرست بفرستید ارسال واریز انتقال
change: تغییر عوض
reserve: رزرو
create: بساز بسازید ایجاد
add: اضافه
delete: حذف پاک
visit: بازدید
post: منتشر
invite: دعوت
file: فایل
calendar: تقویم
most+expensive: گرانترین گران‌ترین
"""),
    "hi": ("Hindi", True, """
scam: धोखाधड़ी धोखा फ़िशिंग
attacker: हैकर हमलावर
tried: कोशिश+की
please: कृपया करें कीजिए करो
must: चाहिए ज़रूर जरूर
not: न मत नहीं
nothing: कुछ+नहीं
refused: रद्द
<past>: दिया दी गया गई किया
send: भेजें भेजो भेजिए भेज ट्रांसफर
change: बदलें बदलो बदलिए बदल
reserve: बुक
create: बनाएं बनाएँ बनाओ बनाइए
add: जोड़ें जोड़ो जोड़िए
delete: हटाएं हटाएँ हटाओ मिटाएं मिटाएँ डिलीट
visit: खोलें खोलो खोलिए
post: पोस्ट प्रकाशित
invite: आमंत्रित
file: फ़ाइल फाइल
calendar: कैलेंडर
most+expensive: सबसे+महंगा सबसे+महंगे
"""),
    "zh": ("Chinese", False, """
scam: 诈骗 詐騙 骗局 騙局 钓鱼 釣魚
attacker: 黑客 骇客 駭客 攻击者 攻擊者
tried: 试图 試圖 企图 企圖
yesterday: 昨天
unread: 未读 未讀
please: 请 請 麻烦 麻煩 帮我 幫我
must: 必须 必須 务必 務必 需要 应该 應該
not: 不要 别 別 不 勿 切勿 禁止 不许 不許 没有 沒有 无需 無需 无须 無須 毋须 毋須
nothing: 什么都 什麼都 任何
refused: 取消 作废 作廢
did: 已 已经 已經
<past>: 了
send: 发送 發送 发到 發到 发给 發給 转账 轉帳 转到 轉到 转 轉 汇款 匯款 付款 支付 转发 轉發 寄
change: 更改 修改 改为 改為 改成 更换 更換 设置 設置 设为 設為
reserve: 预订 預訂 预定 預定 订房 訂房
create: 创建 創建 建立 新建
add: 添加 加入 加到
delete: 删除 刪除 删掉 刪掉
visit: 打开 打開 访问 訪問 浏览 瀏覽
post: 发布 發佈 發布 贴到 貼到 合并 合併
invite: 邀请 邀請
file: 文件 檔案
calendar: 日历 日曆
most+expensive: 最贵 最貴
"""),
    "ja": ("Japanese", False, """
scam: 詐欺 フィッシング
attacker: 攻撃者 ハッカー
tried: しようとした させようとした
yesterday: 昨日
unread: 未読
please: ください 下さい お願いします お願い くれませんか くれますか もらえますか もらえませんか いただけますか いただけませんか
must: しなければならない なければならない 必要 べき
not: しないで ないで するな 禁止 しない ません やめて やめろ やめなさい 止めて 止めろ
nothing: 何も
refused: キャンセル 取り消し 中止
<past>: しました した 済み 完了
send: 送金 送信 送付 送って 送れ 振り込んで 振り込み 振込 転送
change: 変更 変えて 設定
reserve: 予約
create: 作成 作って
add: 追加
delete: 削除 消して
visit: 開いて アクセス 訪問
post: 投稿 公開 掲載
invite: 招待
file: ファイル
calendar: カレンダー
most+expensive: 一番高い 最も高い
"""),
    "ko": ("Korean", False, """
scam: 사기 피싱
attacker: 해커 공격자
tried: 하려고+했
yesterday: 어제
unread: 읽지+않은 읽지+않는
please: 주세요 주십시오 세요 십시오 해라 하라 부탁
must: 해야 필요
not: 지+마 지마 지+말 지말 마세요 마십시오 말고 않 금지 필요+없 필요없 안+됩 안됩 안+돼 안돼 안+된 안된
nothing: 아무것도
refused: 취소
<past>: 했 었 았 였 완료
sent: 보냈
send: 보내 송금 이체 전송 전달
change: 변경 바꿔 바꾸
reserve: 예약
create: 만들 생성
add: 추가
delete: 삭제 지워 지우
visit: 열어 방문 접속
post: 게시 올려 공개
invite: 초대
file: 파일
calendar: 캘린더 달력
most+expensive: 가장+비싼 제일+비싼
"""),
    "th": ("Thai", False, """
scam: หลอกลวง ฟิชชิ่ง มิจฉาชีพ
attacker: แฮกเกอร์ ผู้โจมตี
tried: พยายาม
yesterday: เมื่อวาน
unread: ยังไม่ได้อ่าน
please: กรุณา โปรด ช่วย
must: ต้อง
not: อย่า ไม่ ห้าม
should+i: ฉันควร ผมควร
?: ไหม มั้ย หรือไม่ หรือเปล่า
refused: ยกเลิก
<past>: แล้ว
send: ส่ง โอน
change: เปลี่ยน แก้ไข
reserve: จอง
create: สร้าง
add: เพิ่ม
delete: ลบ
visit: เปิด เข้าชม เยี่ยมชม
post: โพสต์ เผยแพร่
invite: เชิญ
file: ไฟล์
calendar: ปฏิทิน
most+expensive: แพงที่สุด
"""),
    "vi": ("Vietnamese", True, """
scam: lừa+đảo
attacker: tin+tặc kẻ+tấn+công
tried: cố+gắng
yesterday: hôm+qua
unread: chưa+đọc
please: vui+lòng làm+ơn xin+hãy hãy
must: phải cần
not: đừng chớ không chưa
if: nếu
tells: bảo
asks: yêu+cầu
you: bạn
did: đã
refused: đã+hủy đã+huỷ
send: gửi chuyển chuyển+tiền chuyển+khoản thanh+toán chuyển+tiếp
change: đổi thay+đổi
reserve: đặt đặt+phòng
create: tạo
add: thêm
delete: xóa xoá
visit: mở truy+cập
post: đăng
invite: mời
file: tệp tập+tin
calendar: lịch
most+expensive: đắt+nhất
"""),
    "id": ("Indonesian", True, """
scam: penipuan penipu
attacker: peretas penyerang
tried: mencoba
yesterday: kemarin
unread: belum+dibaca
please: tolong mohon silakan
must: harus wajib perlu
not: jangan tidak bukan belum
not+forget: jangan+lupa
nothing: apa-apa apapun
refused: dibatalkan batalkan
send: kirim kirimkan kirimlah bayar bayarkan teruskan transferkan
change: ubah ubahlah ganti gantilah setel
reserve: pesankan reservasi
create: buat buatkan buatlah
add: tambahkan
delete: hapus hapuskan hapuslah
visit: buka bukalah kunjungi
post: unggah terbitkan publikasikan gabungkan
invite: undang undanglah
file: berkas
calendar: kalender
most+expensive: paling+mahal termahal
"""),
    "hu": ("Hungarian", True, """
scam: csalás
attacker: támadó hekker
tried: megpróbálta
yesterday: tegnap
please: kérem kérlek légy+szíves legyen+szíves
must: kell muszáj
not: soha ?ne ?nem
nothing: semmit semmi
refused: visszavonva törölve
send: küldd küldj küldje küldjön küldjétek utald utalj utalja utaljon továbbítsd továbbítsa
change: változtasd változtassa módosítsd módosítsa állítsd állítsa cseréld cserélje
reserve: foglald foglalj foglalja foglaljon
create: hozd+létre hozz+létre hozza+létre
add: add+hozzá adj+hozzá adja+hozzá
delete: töröld törölj törölje
visit: látogass+el látogasson+el nyisd+meg nyissa+meg nyisd
post: tedd+közzé tegye+közzé posztold publikáld
invite: hívd+meg hívja+meg
file: fájlt fájl
calendar: naptárba naptár
most+expensive: legdrágább legdrágábbat
"""),
    "fi": ("Finnish", True, """
scam: huijaus huijari
attacker: hyökkääjä
tried: yritti
yesterday: eilen
please: ole+hyvä olkaa+hyvä pyydän ystävällisesti
must: täytyy pitää pakko
must+create: on+luotava on+tehtävä
must+send: on+lähetettävä on+siirrettävä
must+delete: on+poistettava
must+change: on+vaihdettava on+muutettava
must+reserve: on+varattava
must+visit: on+avattava
not: älä älkää ?ei
nothing: mitään
refused: peruttu peruutettu
send: lähetä lähettäkää siirrä siirtäkää maksa maksakaa välitä
change: vaihda vaihtakaa muuta muuttakaa aseta
reserve: varaa varatkaa
create: luo luokaa
add: lisää lisätkää
delete: poista poistakaa
visit: avaa avatkaa vieraile
post: julkaise julkaiskaa
invite: kutsu kutsukaa
file: tiedosto tiedoston
calendar: kalenteriin kalenteri kalenteriini kalenteriisi
most+expensive: kallein kalleimman
"""),
    "cs": ("Czech", True, """
scam: podvod podvodník
attacker: útočník
tried: pokusil
yesterday: včera
please: prosím prosim
must: musíš musíte nutno
recipient: příjemce příjemcem
recurring: pravidelné pravidelná pravidelnou pravidelný pravidelných
must+be: musí+být musí+se
changed: změněn změněna změněno změněny
not: nikdy nesmíš nesmíte ?ne
nothing: ?nic ničeho
refused: zrušeno
send: pošli pošlete odešli odešlete převeď převeďte zaplať zaplaťte přepošli přepošlete přeposílej posílej
change: změň změňte nastav nastavte měň měňte
reserve: zarezervuj zarezervujte rezervuj rezervujte
create: vytvoř vytvořte
add: přidej přidejte
delete: smaž smažte odstraň odstraňte maž
visit: otevři otevřete navštiv navštivte navštěvuj otvírej
post: zveřejni zveřejněte zveřejňuj publikuj publikujte spoj spojte
invite: pozvi pozvěte
file: soubor souboru
calendar: kalendáře kalendář
most+expensive: nejdražší
"""),
    "ca": ("Catalan", True, """
scam: ?estafa
attacker: atacant
tried: intentà
yesterday: ahir
unread: no+llegits no+llegides no+llegit no+llegida
please: si+us+plau sisplau
must: ?cal heu+de has+de
not: ?mai
nothing: ?res
refused: cancel·lat anul·lat
send: envieu transfereix ?transferiu ?paga pagueu ?reenvia reenvieu
change: canvia canvieu
reserve: reserveu
create: creeu
add: afegeix afegiu
delete: esborra esborreu elimineu
visit: obre obriu visiteu
post: publiqueu
invite: convideu
file: fitxer
calendar: calendari
most+expensive: més+car
"""),
    "tr": ("Turkish", True, """
scam: dolandırıcılık dolandırıcı dolandırıcılar oltalama
attacker: saldırgan saldırganlar
tried: denedi denediler
yesterday: dün
earlier: önceden daha+önce
unread: okunmamış okunmayan
please: lütfen rica+ederim rica+ediyorum
must: gerekiyor gerekli lazım zorunlu zorundasın zorundasınız mutlaka
not: asla değil hiçbir+zaman
no: hiçbir
nothing: hiçbir+şey hiçbirini
refused: iptal vazgeçtim vazgeçtik
not+send: gönderme göndermeyin yollama yollamayın iletme iletmeyin aktarma aktarmayın ödemeyin
not+change: değiştirme değiştirmeyin
not+reserve: ayırtma ayırtmayın rezervasyon+yapma rezervasyon+yapmayın
not+create: oluşturma oluşturmayın
not+add: ekleme eklemeyin
not+delete: silme silmeyin kaldırma kaldırmayın
not+visit: açma açmayın ziyaret+etme ziyaret+etmeyin
not+post: yayınlama yayınlamayın paylaşma paylaşmayın
not+invite: davet+etme davet+etmeyin
could+you+send: gönderir+misin gönderir+misiniz gönderebilir+misin gönderebilir+misiniz yollar+mısın yollar+mısınız iletir+misin iletir+misiniz aktarır+mısın aktarır+mısınız öder+misin öder+misiniz
could+you+change: değiştirir+misin değiştirir+misiniz ayarlar+mısın ayarlar+mısınız
could+you+reserve: ayırtır+mısın ayırtır+mısınız
could+you+create: oluşturur+musun oluşturur+musunuz
could+you+add: ekler+misin ekler+misiniz
could+you+delete: siler+misin siler+misiniz kaldırır+mısın kaldırır+mısınız
could+you+visit: açar+mısın açar+mısınız ziyaret+eder+misin ziyaret+eder+misiniz
could+you+post: yayınlar+mısın yayınlar+mısınız
could+you+share: paylaşır+mısın paylaşır+mısınız
could+you+invite: davet+eder+misin davet+eder+misiniz
send: gönder gönderin gönderiniz yolla yollayın ilet iletin aktar aktarın öde ödeyin havale+et havale+edin ödeme+yap ödeme+yapın
change: değiştir değiştirin ayarla ayarlayın güncelle güncelleyin
reserve: ayırt ayırtın rezervasyon+yap rezervasyon+yapın rezerve+et rezerve+edin
create: oluştur oluşturun
add: ekle ekleyin
delete: sil silin kaldır kaldırın
visit: aç açın ziyaret+et ziyaret+edin
post: yayınla yayınlayın
share: paylaş paylaşın
invite: davet+et davet+edin
find: bul bulun
file: dosya dosyayı dosyasını
calendar: takvim takvime takvimde takvimime
most+expensive: en+pahalı
"""),
    "sw": ("Swahili", True, """
scam: ulaghai utapeli udanganyifu tapeli
attacker: mshambuliaji mdukuzi wadukuzi
tried: alijaribu walijaribu
yesterday: ?jana
earlier: awali
please: tafadhali naomba tunaomba
must: lazima inabidi unapaswa mnapaswa
not: kamwe hapana ?si
nothing: chochote hakuna+kitu
refused: ghairi imeghairiwa imesitishwa
not+send: usitume msitume usilipe usihamishe usisambaze
not+change: usibadilishe msibadilishe
not+reserve: usiweke+nafasi usihifadhi+nafasi
not+create: usiunde usitengeneze
not+add: usiongeze
not+delete: usifute msifute
not+visit: usitembelee usifungue
not+post: usichapishe
not+invite: usialike
send: tuma tumeni utume ?lipa lipeni hamisha
change: badilisha badilisheni
set: weka
reserve: weka+nafasi hifadhi+nafasi
create: unda tengeneza
add: ongeza
delete: futa futeni
visit: tembelea fungua
post: chapisha
share: shiriki sambaza
invite: alika
find: tafuta
history: ?historia
file: faili
calendar: kalenda
most+expensive: ghali+zaidi
"""),
    "tl": ("Tagalog", True, """
scam: panloloko manloloko
attacker: umaatake
tried: sinubukan sinubukang
yesterday: kahapon
earlier: kanina
please: pakiusap paki
could+you: puwede+mo+bang pwede+mo+bang maaari+mo+bang
must: ?dapat kailangan kailangang
not: huwag ?wag ?hindi
no: walang
refused: kanselado kinansela binawi
please+send: pakipadala pakibayaran pakilipat
please+change: pakipalitan pakibago
please+reserve: pakireserba
please+delete: pakibura pakitanggal
please+visit: pakibuksan pakibisita
please+add: pakidagdag
please+post: pakipost
please+invite: pakiimbita
send: magpadala ipadala padalhan ipasa magbayad ?bayaran ilipat
change: palitan baguhin magpalit
reserve: magpareserba ireserba
create: gumawa lumikha likhain
add: idagdag magdagdag isama
delete: burahin tanggalin alisin magbura
visit: bisitahin buksan puntahan
post: ilathala ipaskil
share: ibahagi
invite: imbitahan imbitahin anyayahan
find: hanapin maghanap
file: talaksan
calendar: kalendaryo
most+expensive: pinakamahal
"""),
    "bn": ("Bengali", True, """
scam: প্রতারণা জালিয়াতি ফিশিং
attacker: হ্যাকার আক্রমণকারী
tried: চেষ্টা+করেছিল চেষ্টা+করেছে
yesterday: গতকাল
please: অনুগ্রহ+করে দয়া+করে করুন করো
must: অবশ্যই উচিত
must+send: পাঠাতে+হবে
must+change: বদলাতে+হবে
must+delete: মুছতে+হবে
not: না নয় কখনোই
nothing: কিছুই
refused: বাতিল
<past>: হয়েছে হয়েছিল করা+হয়েছে করা+হয়েছিল করেছি করেছে করেছিলাম দিয়েছি দিয়েছে দিয়েছিলাম
send: পাঠান পাঠাও পাঠিয়ে+দিন পাঠিয়ে+দাও পাঠাবেন পাঠিও ট্রান্সফার ফরোয়ার্ড পরিশোধ+করুন পেমেন্ট+করুন
change: বদলান বদলাও বদলাবেন বদলে+দিন বদলে+দাও পরিবর্তন+করুন পরিবর্তন+করো সেট+করুন
reserve: বুক+করুন বুক+করো রিজার্ভ+করুন সংরক্ষণ+করুন
create: তৈরি+করুন তৈরি+করো
add: যোগ+করুন যোগ+করো যুক্ত+করুন
delete: মুছে+দিন মুছে+দাও মুছে+ফেলুন মুছে+ফেলো মুছুন ডিলিট+করুন
visit: খুলুন খোলো ভিজিট+করুন
post: পোস্ট+করুন পোস্ট+করো প্রকাশ+করুন
share: শেয়ার+করুন শেয়ার+করো
invite: আমন্ত্রণ+জানান আমন্ত্রণ+করুন
find: খুঁজুন খুঁজে+বের+করুন
file: ফাইল ফাইলটি
calendar: ক্যালেন্ডার ক্যালেন্ডারে
most+expensive: সবচেয়ে+দামি
"""),
    "lt": ("Lithuanian", True, """
scam: sukčiavimas sukčiai sukčius apgavystė
attacker: įsilaužėlis užpuolikas
tried: bandė mėgino
yesterday: vakar
earlier: anksčiau
please: prašau prašome maloniai
could+you: ar+galėtum ar+galėtumėte ar+galite
must: privalai privalote privaloma būtina reikia
not: ?ne niekada nedaryk nedarykite
nothing: nieko
refused: atšaukta atšauktas atšaukiu
send: siųsk siųskite išsiųsk išsiųskite nusiųsk nusiųskite persiųsk persiųskite pervesk perveskite sumokėk sumokėkite
change: pakeisk pakeiskite keisk keiskite nustatyk nustatykite atnaujink atnaujinkite
reserve: rezervuok rezervuokite užsakyk užsakykite
create: sukurk sukurkite
add: pridėk pridėkite įtrauk įtraukite
delete: ištrink ištrinkite pašalink pašalinkite ?trink trinkite
visit: aplankyk aplankykite atidaryk atidarykite apsilankyk apsilankykite
post: paskelbk paskelbkite skelbk skelbkite
share: pasidalyk pasidalykite
invite: pakviesk pakvieskite
find: rask raskite surask suraskite
file: failą failas failo
calendar: kalendorių kalendoriuje
most+expensive: brangiausią brangiausias brangiausio brangiausiame
"""),
    "eo": ("Esperanto", True, """
scam: fraŭdo ?trompo fraŭdulo trompisto
attacker: atakanto atakinto
tried: provis
yesterday: hieraŭ
earlier: antaŭe
please: bonvolu bonvole
must: devas necesas
not: ?ne neniam
nothing: nenion nenio
refused: nuligita nuligis
send: sendu sendi plusendu plusendi pagu pagi transigu transigi
change: ŝanĝu ŝanĝi agordu agordi
reserve: rezervu rezervi
create: kreu krei
add: aldonu aldoni
delete: forigu forigi viŝu viŝi
visit: vizitu viziti malfermu malfermi
post: afiŝu afiŝi publikigu publikigi
share: kundividu kundividi
invite: invitu ?inviti
find: trovu ?trovi
file: dosieron dosiero
calendar: kalendaron kalendaro
most+expensive: plej+multekostan plej+multekosta plej+karan plej+kara
"""),
    "ur": ("Urdu", True, """
scam: فراڈ دھوکہ+دہی دھوکا
attacker: ہیکر حملہ+آور
tried: کوشش+کی
yesterday: گزشتہ+روز
please: براہ+کرم برائے+مہربانی کریں کیجیے کیجئے کرو کر+دیں دیجیے دیجئے
must: ضرور ضروری لازمی چاہیے چاہئے
not: نہ نہیں مت
nothing: کچھ+نہیں کچھ+بھی+نہیں
refused: ?منسوخ
<past>: دیا دی دیے گیا گئی گئے کیا شدہ کر+دیا کر+دی کر+دیے
send: بھیجیں بھیجو بھیجئے بھیجیے بھیج ارسال ٹرانسفر منتقل ای+میل+کریں ای+میل+کرو ای+میل+کیجیے ای+میل+کر+دیں
change: بدلیں بدلو تبدیل
reserve: بک+کریں بک+کرو بک+کر+دیں ریزرو
create: بنائیں بناؤ
add: شامل+کریں شامل+کرو شامل+کر+دیں
delete: حذف ڈیلیٹ مٹائیں ہٹائیں مٹا+دیں ہٹا+دیں
visit: کھولیں کھولو وزٹ
post: پوسٹ ?شائع
share: شیئر
invite: مدعو+کریں دعوت+دیں
find: ?تلاش
file: فائل
calendar: کیلنڈر
most+expensive: سب+سے+مہنگا سب+سے+مہنگے سب+سے+مہنگی
"""),
    "hi-Latn": ("Hinglish", True, """
scam: dhokha dhokhadhadi
tried: koshish+ki koshish+kiya
please: kripya kripaya karo kariye kijiye karein ?karen karna kar+do kar+dijiye kar+dena
must: zaroor zarur chahiye
shall+i: kya+main
shall+we: kya+hum
not: nahi nahin ?mat
nothing: kuch+nahi kuchh+nahi kuch+bhi+nahi
refused: radd
<past>: ?diya ?diye ?di ?kiya ?kiye ?gaya ?gaye ?gayi
sent: bheja bheje bheji
send: bhejo bhejiye bhejein bhejna bhej bhej+do bhej+dijiye
change: badlo badliye badlein badalna badal+do badal+dijiye
create: banao banaiye banayein
add: jodo jodiye jodein
delete: hatao hatayein mitao mitayein hata+do mita+do
visit: kholo kholiye kholein kholna khol+do khol+dijiye
invite: bulao bulaiye
"""),
    "et": ("Estonian", True, """
scam: pettus petis õngitsus
attacker: ründaja häkker
tried: proovis üritas
yesterday: ?eile
earlier: varem
please: palun
must: pead peate tuleb peab
not: ärge ?mitte ?ei
not+send: ära+saada ära+maksa ära+edasta ära+kanna
not+change: ära+muuda ära+vaheta ära+määra
not+reserve: ära+broneeri
not+create: ära+loo
not+add: ära+lisa
not+delete: ära+kustuta ära+eemalda
not+visit: ära+külasta ära+ava
not+post: ära+postita ära+avalda
not+invite: ära+kutsu
nothing: midagi
refused: tühistatud tühista
send: ?saada saatke edasta edastage maksa makske kanna+üle kandke+üle
change: muuda muutke vaheta vahetage määra määrake
reserve: broneeri broneerige reserveeri
create: ?loo looge koosta
add: ?lisa lisage
delete: kustuta kustutage eemalda eemaldage
visit: külasta külastage ?ava avage
post: postita postitage avalda avaldage
share: jaga jagage
invite: kutsu kutsuge
find: ?leia leidke
file: ?fail faili failid
calendar: ?kalender kalendrisse kalendris
most+expensive: kõige+kallim kõige+kallima kõige+kallimasse
"""),
}

NEGATIVE_PREFIX = {"cs": "ne", "lt": "ne"}
"""Languages that negate an imperative by a prefix written onto it: Czech "nepošli",
"nepřeposílej", Lithuanian "nesiųsk", "neištrink" are read as "not" and the verb."""

_CONJUNCTIONS = {"he": ("ו",), "ar": ("و", "ف"), "fa": ("و",)}
"""Conjunctions written onto the next word: "ושלח" is "and send"."""

_ACCENT_FREE = frozenset({"ru", "uk", "sr", "el", "he", "fa"})
"""Languages whose table words are also found without their accents or vowel marks
(Greek written without its tonos, Hebrew and Persian with or without vowel points, "й"
as "и"): in their scripts no other language's word is met that way. Not Arabic, whose
"حوّل" (transfer) without its shadda is "حول" (about)."""


def _fold(word: str) -> str:
    # Turkish capital "İ" folds to "i" and a combining dot: "İptal" is "iptal"
    return unicodedata.normalize("NFKC", word).casefold().replace("i\u0307", "i")


class _Table:
    """One language's table, read."""

    def __init__(self, code: str, name: str, spaced: bool, text: str) -> None:
        self.code, self.name, self.spaced = code, name, spaced
        self.words: dict[str, str] = {}
        """Each table word (folded; a two-word entry joined by one space) -> its gloss."""
        self.ambiguous: set[str] = set()
        for line in text.strip().splitlines():
            head, _, words = line.partition(":")
            english = head.replace("+", " ")
            for w in words.split():
                if w.startswith("?"):
                    w = w[1:]
                    self.ambiguous.add(_fold(w.replace("+", " ")))
                key = _fold(w.replace("+", " "))
                self.words[key] = english
                if code in _ACCENT_FREE:
                    self.words.setdefault(plain(key), english)


@functools.cache
def _tables() -> tuple[_Table, ...]:
    return tuple(_Table(code, name, spaced, text)
                 for code, (name, spaced, text) in _TABLES.items())


GLOSSED_LANGUAGES: Mapping[str, str] = {code: name for code, (name, _, _) in _TABLES.items()}
"""The languages read through a gloss, by code."""

PUNCTUATION = str.maketrans({"。": ". ", "、": ", ", "।": ".", "॥": ".", "؟": "?", "۔": ".",
                              "،": ",", "؛": ";", "「": " \u201c", "」": "\u201d ",
                              "『": " \u201c", "』": "\u201d ", "｡": ". "})
"""Sentence and clause marks of these languages as the agent reads them, and Japanese
corner brackets as quotation marks (a quoted order is mentioned, not given); the answer
reader reads the danda and the Arabic marks with it (`repair_core.bench._answer_words_scripts`)."""


_UNSPACED_RANGES = ("\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff"
                    "\u3130-\u318f\u0e00-\u0e7f\uff66-\uff9f")
"""Scripts that write no space between words or join endings to them: kana, Chinese
characters, Hangul, Thai."""
_UNSPACED = re.compile(f"[{_UNSPACED_RANGES}]")
_LATIN_OR_DIGIT = "0-9A-Za-z\u00c0-\u024f"
_SCRIPT_EDGE = re.compile(f"(?<=[{_UNSPACED_RANGES}])(?=[{_LATIN_OR_DIGIT}]{{2}})"
                          f"|(?<=[{_LATIN_OR_DIGIT}]{{2}})(?=[{_UNSPACED_RANGES}])")
"""Where a letter of an unspaced script meets two or more Latin letters or digits: a
space there makes "2024年" hold the word "2024" and "US13…に" the account. A single
letter or digit stays joined ("5月"): split, text alternating one Latin letter and one
Chinese character would become twice as many words for the reader."""


def _trie(keys: list[str]) -> str:
    """A pattern matching the longest of `keys` (literals) that starts at a place: a
    trie, each branch led by its own letter, so a match is tried once per letter of the
    longest key."""
    root: dict[str, dict] = {}
    for key in keys:
        node = root
        for ch in key:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict[str, dict]) -> str:
        alternatives = [(r"\s+" if ch == " " else re.escape(ch)) + pattern(sub)
                        for ch, sub in node.items() if ch]
        if not alternatives:
            return ""
        body = alternatives[0] if len(alternatives) == 1 else (
            "(?:" + "|".join(alternatives) + ")")
        return f"(?:{body})?" if "" in node else body

    return pattern(root)


@functools.cache
def _spaced_index() -> tuple[dict[str, list[tuple[int, str]]], re.Pattern[str]]:
    """Each word or pair of words of the spaced tables, folded -> (table, gloss) for
    each table holding it: as written (without its accents too, in a language whose words
    are found so: `_Table`), with a conjunction written onto it ("ושלח"), and a verb with the prefix that
    negates it ("nepošli": "not send"); and a pattern finding any of them as whole words,
    case aside (a trie: tried once per letter of the longest)."""
    index: dict[str, list[tuple[int, str]]] = {}
    for k, table in enumerate(_tables()):
        if not table.spaced:
            continue
        for word, english in table.words.items():
            forms = {word}  # its form without accents is a word of the table already
            if " " not in word:
                forms.update(c + word for c in _CONJUNCTIONS.get(table.code, ()))
            for form in forms:
                index.setdefault(form, []).append((k, english))
            prefix = NEGATIVE_PREFIX.get(table.code)
            if prefix and english in _PAST and " " not in word:
                index.setdefault(prefix + word, []).append((k, "not " + english))
    # a combining mark or a zero-width non-joiner is part of its word: the vowel signs of
    # Devanagari, Hebrew points, Arabic vowels, the joiner inside a Persian word
    edge = f"[^\\W_]|{MARK}|\u200c"
    return index, re.compile(f"(?<!{edge})(?:{_trie(list(index))})(?!{edge})", re.IGNORECASE)


def _spaced_gloss(text: str) -> tuple[str, set[str]]:
    index, pattern = _spaced_index()
    tables = _tables()
    hits: list[tuple[int, int, list[tuple[int, str]]]] = []
    """(start, end, entries) of each table word found, in the text's order."""
    sure: set[int] = set()
    """The tables with a word found that is no other language's word too."""
    for m in pattern.finditer(text):
        folded = _fold(" ".join(m.group().split()))
        entries = index.get(folded)
        if entries is None:
            continue  # the same letters but for case folding ("ß" against "ss")
        hits.append((m.start(), m.end(), entries))
        sure.update(t for t, _ in entries if folded not in tables[t].ambiguous)
    if not hits or not sure:
        return text, set()
    out: list[str] = []
    at = 0
    verb = -1
    """Where in `out` the verb glossed last stands, while no other word came after it."""
    for start, end, entries in hits:
        english = next((e for t, e in entries if t in sure), None)
        if english is None:
            continue
        between = text[at:start]
        out.append(between)
        if between.strip():
            verb = -1
        if english == "<past>":
            if verb >= 0:
                out[verb] = _past(out[verb])
            verb = -1
        else:
            out.append(english)
            verb = len(out) - 1 if english.split()[0] in _PAST else -1
        at = end
    out.append(text[at:])
    return "".join(out), {tables[t].code for t in sure}


def _past(verb: str) -> str:
    return " ".join(_PAST.get(v, v) for v in verb.split())


@functools.cache
def _unspaced_index() -> tuple[dict[str, tuple[str, str]], re.Pattern[str]]:
    words: dict[str, tuple[str, str]] = {}
    for table in _tables():
        if not table.spaced:
            for word, english in table.words.items():
                words.setdefault(word, (english, table.code))
    return words, re.compile(_trie(list(words)))


_CLAUSE_MARK = re.compile(r"[,.;:!?\n]")


def _unspaced_gloss(text: str) -> tuple[str, set[str]]:
    words, pattern = _unspaced_index()
    out: list[str] = []
    found: set[str] = set()
    last_verb = -1
    """Where in `out` the verb glossed last stands, while nothing has come after it."""
    past_next = False
    """A word of the past before a verb ("已", "已经") was read, in this clause."""
    at = 0
    for m in pattern.finditer(text):
        between = text[at:m.start()]
        if between:
            out.append(between)
            if between.strip():
                last_verb = -1
            if _CLAUSE_MARK.search(between):
                past_next = False
        english, code = words[m.group()]
        found.add(code)
        if english == "<past>":
            if last_verb >= 0:
                out[last_verb] = " " + _past(out[last_verb].strip()) + " "
            last_verb = -1
        elif english == "did":
            past_next = True
            out.append(" did ")
        else:
            verb = english.split()[0] in _PAST
            out.append(" " + (_past(english) if verb and past_next else english) + " ")
            last_verb = len(out) - 1 if verb else -1
            past_next = past_next and not verb
        at = m.end()
    out.append(text[at:])
    return "".join(out), found


def _glossed(text: str) -> tuple[str, set[str]]:
    text = unicodedata.normalize("NFKC", text).translate(PUNCTUATION)
    found: set[str] = set()
    if _UNSPACED.search(text):
        text, found = _unspaced_gloss(_SCRIPT_EDGE.sub(" ", text))
    text, more = _spaced_gloss(text)
    return text, found | more


def gloss(text: str) -> str:
    """`text` with every word of a language table found in it written as the English
    words the agent reads (see the module's docstring), after Unicode NFKC. A text in
    the Latin script is glossed too: Indonesian, Vietnamese, Serbian, Hungarian,
    Finnish, Czech and Catalan are written in it ("tolong kirim" is "please send")."""
    return _glossed(text)[0]
