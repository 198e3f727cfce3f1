"""Arabic effect texts of the card database, for the online table's Arabic page.

An Arabic player decides from a card's effect text as a Russian or Bulgarian one
does (``texts_ru.py``, ``texts_bg.py``), so every card of
:data:`~goat.games.yugioh.cards.data.DATABASE` has an Arabic text here, keyed by its
(English) name. Each one says what the English ``CardData.text`` says — the
engine's own wording of what it implements, not the printed card: the same
conditions, costs, targets, timing and numbers.

Conventions (the page's ``ygo.*`` strings in ``static/i18n-ar.js`` use the same
words, those of the Arabic Yu-Gi-Oh! dub and apps): المقبرة (Graveyard), الرزمة
(Deck), رزمة الدمج (Fusion Deck), "أبعِد من اللعب" (remove from play), استدعاء
عادي / بالتضحية / خاص (Normal / Tribute / Special Summon), "ضع" (Set), وضع الهجوم /
وضع الدفاع, مكشوف / مقلوب (face-up / face-down), سحر, فخ, هجوم and دفاع for ATK
and DEF, نقاط الحياة for LP, عدّاد سحر (Spell Counter). Card names stay English as
printed; Attributes and Types are written as the page renders them (``من سمة نور``,
``من نوع محارب``), never with a prefix joined to them. Two is often said by the
dual alone (بطاقتين, "two cards"), as Arabic does. ``tests/yugioh/test_card_texts.py``
checks that every card has one, that its Latin words are card names and that its
numbers are the English ones.
"""

from __future__ import annotations

_NOMI_LIGHT_DARK = ("لا يمكن استدعاؤها استدعاءً عاديًا ولا وضعها. تُستدعى استدعاءً خاصًا من يدك بإبعاد "
                    "وحش من سمة نور ووحش من سمة ظلام من مقبرتك من اللعب.")
_SPIRIT = ("روح: لا يمكن استدعاؤها استدعاءً خاصًا؛ تعود إلى يد مالكها في مرحلة النهاية من الدور الذي "
           "استُدعيت فيه استدعاءً عاديًا أو قُلبت فيه مكشوفة.")
_PLAIN = "وحش عادي بلا تأثير."
_LIMB = "قطعة من إكزوديا."

#: Card name → its effect text in Arabic.
TEXTS_AR: dict[str, str] = {
    # ------------------------------------------------------- Goat Control monsters
    "Black Luster Soldier - Envoy of the Beginning":
        _NOMI_LIGHT_DARK + " مرة في كل دور اختر أحد الأمرين: أبعِد من اللعب وحشًا في الميدان (لا تستطيع "
        "هذه البطاقة الهجوم في هذا الدور)، أو اسمح لهذه البطاقة بالهجوم مرة ثانية في هذا الدور إن دمّرت "
        "وحشًا في معركة.",
    "Chaos Sorcerer":
        _NOMI_LIGHT_DARK + " مرة في كل دور يمكنك إبعاد وحش مكشوف في الميدان من اللعب؛ ولا تستطيع هذه البطاقة "
        "الهجوم في ذلك الدور.",
    "Airknight Parshath":
        "حين تهاجم وحشًا في وضع الدفاع دفاعه أقل، تُلحق الفرق ضرر معركة. وحين تُلحق ضرر معركة بالخصم، "
        "يسحب المسيطر عليها بطاقة واحدة.",
    "Tsukuyomi":
        _SPIRIT + " حين تُستدعى استدعاءً عاديًا أو تُقلب مكشوفة، اقلب وحشًا مكشوفًا في الميدان إلى وضع الدفاع "
        "مقلوبًا.",
    "Asura Priest":
        _SPIRIT + " يمكنها مهاجمة كل وحش يسيطر عليه الخصم، مرة واحدة لكل وحش.",
    "Breaker the Magical Warrior":
        "حين تُستدعى استدعاءً عاديًا تحصل على عدّاد سحر واحد (واحد على الأكثر). تكسب 300 هجوم لكل عدّاد "
        "سحر. أزِل عدّاد السحر عنها لتدمّر بطاقة سحر أو فخ واحدة في الميدان.",
    "Tribe-Infecting Virus":
        "تخلّص من بطاقة واحدة وأعلن نوعًا: دمّر كل وحش مكشوف من ذلك النوع في الميدان.",
    "D.D. Warrior Lady":
        "بعد حساب الضرر، حين تتقاتل مع وحش للخصم، يمكنك إبعاد ذلك الوحش وهذه البطاقة من اللعب.",
    "Sangan":
        "حين تُرسل من الميدان إلى المقبرة، يضيف مالكها من الرزمة إلى يده وحشًا هجومه 1500 أو أقل، ثم "
        "يخلط الرزمة.",
    "Magician of Faith":
        "قلب: أعِد بطاقة سحر واحدة من مقبرتك إلى يدك.",
    "Magical Merchant":
        "قلب: اكشف البطاقات من أعلى رزمتك حتى تظهر بطاقة سحر أو فخ؛ أضفها إلى يدك وأرسل باقي البطاقات "
        "المكشوفة إلى المقبرة.",
    "Sinister Serpent":
        "خلال مرحلة الاستعداد في دورك، إن كانت هذه البطاقة في مقبرتك، يمكنك إعادتها إلى يدك.",
    "Morphing Jar":
        "قلب: يتخلّص كلا اللاعبين من أيديهما كاملة، ثم يسحب كل منهما خمس بطاقات.",
    "Thousand-Eyes Restrict":
        "دمج Relinquished وThousand-Eyes Idol. لا يستطيع أي وحش آخر الهجوم ولا تغيير وضعه في المعركة. مرة "
        "في كل دور جهّز على هذه البطاقة وحشًا يسيطر عليه الخصم (واحدًا في كل مرة)؛ ويصير هجومها ودفاعها "
        "هجوم ذلك الوحش ودفاعه. وإن كانت ستُدمَّر في معركة، يُدمَّر الوحش المجهَّز بدلًا منها.",
    "Sheep Token":
        "رمز تصنعه Scapegoat.",
    # ------------------------------------------------------- Goat Control spells
    "Pot of Greed":
        "اسحب بطاقتين.",
    "Graceful Charity":
        "اسحب ثلاث بطاقات، ثم تخلّص من بطاقتين.",
    "Delinquent Duo":
        "ادفع 1000 من نقاط الحياة. يتخلّص الخصم من بطاقة واحدة عشوائيًا، ثم من بطاقة واحدة يختارها.",
    "Heavy Storm":
        "دمّر كل بطاقات السحر والفخ في الميدان.",
    "Mystical Space Typhoon":
        "دمّر بطاقة سحر أو فخ واحدة في الميدان.",
    "Snatch Steal":
        "جهّزها على وحش يسيطر عليه الخصم: تسيطر أنت عليه. ويكسب الخصم 1000 من نقاط الحياة في كل مرحلة "
        "استعداد له.",
    "Premature Burial":
        "ادفع 800 من نقاط الحياة: استدعِ استدعاءً خاصًا وحشًا واحدًا من مقبرتك في وضع الهجوم وجهّزه بهذه "
        "البطاقة. وحين تُدمَّر هذه البطاقة، دمّر ذلك الوحش.",
    "Scapegoat":
        "استدعِ استدعاءً خاصًا أربعة Sheep Token في وضع الدفاع. لا يمكن التضحية بها لاستدعاء بالتضحية. لا "
        "يمكنك استدعاء وحوش أخرى في الدور الذي تفعّلها فيه (ويبقى لك الوضع).",
    "Metamorphosis":
        "ضحِّ بوحش واحد (مكشوف أو مقلوب): استدعِ استدعاءً خاصًا من رزمة الدمج وحش دمج له المستوى نفسه.",
    "Book of Moon":
        "اقلب وحشًا مكشوفًا واحدًا إلى وضع الدفاع مقلوبًا.",
    "Nobleman of Crossout":
        "دمّر وحشًا مقلوبًا واحدًا وأبعِده من اللعب. إن كان وحش قلب، يُبعد كل لاعب من اللعب كل البطاقات "
        "التي تحمل ذلك الاسم في رزمته.",
    "Rush Recklessly":
        "يكسب وحش مكشوف واحد 700 هجوم حتى نهاية الدور.",
    # ------------------------------------------------------- Goat Control traps
    "Mirror Force":
        "حين يعلن وحش للخصم هجومًا: دمّر كل الوحوش في وضع الهجوم التي يسيطر عليها الخصم.",
    "Torrential Tribute":
        "حين يُستدعى وحش: دمّر كل الوحوش في الميدان.",
    "Ring of Destruction":
        "دمّر وحشًا مكشوفًا واحدًا؛ ويتلقى كلا اللاعبين ضررًا يساوي هجومه.",
    "Call of the Haunted":
        "استدعِ استدعاءً خاصًا وحشًا واحدًا من مقبرتك في وضع الهجوم. حين تغادر هذه البطاقة الميدان، دمّر "
        "ذلك الوحش؛ وحين يُدمَّر ذلك الوحش، دمّر هذه البطاقة.",
    "Sakuretsu Armor":
        "حين يعلن وحش للخصم هجومًا: دمّر الوحش المهاجم.",
    "Dust Tornado":
        "دمّر بطاقة سحر أو فخ واحدة يسيطر عليها الخصم؛ ثم يمكنك أن تضع بطاقة سحر أو فخ من يدك.",
    # ------------------------------------------------------- Field Spells
    "Yami":
        "تكسب الوحوش من نوع شيطان ومن نوع ساحر 200 هجوم ودفاع؛ وتخسر الوحوش من نوع جنية 200 هجوم ودفاع.",
    "Sogen":
        "تكسب الوحوش من نوع محارب ومن نوع حيوان محارب 200 هجوم ودفاع.",
    "Mystic Plasma Zone":
        "تكسب الوحوش من سمة ظلام 500 هجوم وتخسر 400 دفاع.",
    # ------------------------------------------------------- Fusion, Ritual, Union
    "Polymerization":
        "أرسل من يدك أو من الميدان إلى المقبرة المواد المذكورة على وحش دمج: استدعِ استدعاءً خاصًا ذلك الوحش "
        "من رزمة الدمج.",
    "Gaia the Dragon Champion":
        "دمج Gaia The Fierce Knight وCurse of Dragon.",
    "Gaia The Fierce Knight": _PLAIN,
    "Curse of Dragon": _PLAIN,
    "Black Luster Ritual":
        "ضحِّ بوحوش من يدك أو من الميدان مجموع مستوياتها 8 أو أكثر: استدعِ بالطقوس Black Luster Soldier من "
        "يدك.",
    "Black Luster Soldier":
        "وحش طقوس: لا يُستدعى إلا بالطقوس بواسطة Black Luster Ritual.",
    "X-Head Cannon": _PLAIN,
    "Y-Dragon Head":
        "اتحاد: مرة في كل دور جهّزها على X-Head Cannon المكشوف الخاص بك، أو فكّ تجهيزها واستدعها استدعاءً "
        "خاصًا في وضع الهجوم. يكسب الوحش المجهَّز 400 هجوم ودفاع؛ وإن كان سيُدمَّر في معركة، تُدمَّر هذه "
        "البطاقة بدلًا منه.",
    "Z-Metal Tank":
        "اتحاد: مرة في كل دور جهّزها على X-Head Cannon أو Y-Dragon Head المكشوف الخاص بك، أو فكّ تجهيزها "
        "واستدعها استدعاءً خاصًا في وضع الهجوم. يكسب الوحش المجهَّز 600 هجوم ودفاع؛ وإن كان سيُدمَّر في "
        "معركة، تُدمَّر هذه البطاقة بدلًا منه.",
    # ------------------------------------------------------- a Continuous Trap with an ignition-like effect
    "Skull Lair":
        "ما دامت مكشوفة: أبعِد من اللعب أي عدد من الوحوش من مقبرتك لتدمّر وحشًا مكشوفًا واحدًا مستواه "
        "يساوي عدد الوحوش المُبعدة.",
    # ------------------------------------------------------- Chaos and Warrior decks
    "Exiled Force":
        "ضحِّ بهذه البطاقة لتدمّر وحشًا واحدًا في الميدان.",
    "Blade Knight":
        "تكسب 400 هجوم ما دام المسيطر عليها يحمل في يده بطاقة واحدة أو لا شيء. وما دامت الوحش الوحيد "
        "لدى المسيطر عليها، يُبطَل تأثير القلب لوحش تدمّره في المعركة.",
    "Mystic Swordsman LV2":
        "حين تهاجم وحشًا مقلوبًا في وضع الدفاع، دمّر ذلك الوحش بهذا التأثير في بداية خطوة الضرر دون أن "
        "تقلبه. (ارتقاؤها إلى LV4 غير مطبَّق: LV4 ليست في مجموعة البطاقات.)",
    "Jinzo":
        "ما دامت مكشوفة، لا يمكن تفعيل بطاقات الفخ، وتُبطَل تأثيرات الفخاخ المكشوفة (هنا: لا تفعيل للفخاخ، "
        "ولا استخدام لتأثير Skull Lair، وتُنفَّذ حلقة السلسلة لفخ بلا تأثير — حتى لو فُعّل قبل أن تُكشف "
        "Jinzo — ولا يفعل ارتباط Call of the Haunted بوحشه شيئًا).",
    "Spirit Reaper":
        "لا يمكن تدميرها في معركة. تُدمَّر حين يستهدفها تأثير. وحين تُلحق ضرر معركة بالخصم، يتخلّص من "
        "بطاقة واحدة عشوائيًا.",
    "Night Assailant":
        "قلب: دمّر وحشًا واحدًا في الميدان. وحين يُتخلّص منها من اليد إلى المقبرة، أعِد وحش قلب واحدًا من "
        "مقبرتك إلى يدك (غير Night Assailant).",
    "Dekoichi the Battlechanted Locomotive":
        "قلب: اسحب بطاقة واحدة.",
    "Mobius the Frost Monarch":
        "حين يُستدعى بالتضحية، يمكنك تدمير ما يصل إلى بطاقتين من السحر أو الفخ في الميدان.",
    "Zaborg the Thunder Monarch":
        "حين يُستدعى بالتضحية، دمّر وحشًا واحدًا في الميدان.",
    "Reinforcement of the Army":
        "أضف من رزمتك إلى يدك وحشًا واحدًا من نوع محارب مستواه 4 أو أقل، ثم اخلط الرزمة.",
    # ------------------------------------------------------- plain monsters
    "Gene-Warped Warwolf": _PLAIN,
    "Vorse Raider": _PLAIN,
    "Mystical Elf": _PLAIN,
    "Giant Soldier of Stone": _PLAIN,
    "Summoned Skull": _PLAIN,
    "Dark Magician": _PLAIN,
    "Blue-Eyes White Dragon": _PLAIN,
    "Exodia the Forbidden One":
        "من يحمل في يده هذه البطاقة وأطراف إكزوديا الأربعة يفوز بالمبارزة.",
    "Right Arm of the Forbidden One": _LIMB,
    "Left Arm of the Forbidden One": _LIMB,
    "Right Leg of the Forbidden One": _LIMB,
    "Left Leg of the Forbidden One": _LIMB,
}
