package searchcorpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// englishTop is real English, roughly in order of frequency; the Zipf
// ranks start here, so "the" is the most common word of the corpus.
var englishTop = strings.Fields(`the of and to a in is that for it as was with be by on not he
this are or his from at which but have an they you were her she there one all we their
has been if more when will would who so no can its about into than them only other new
some could time these two may then do first any my now such like our over man me even
most made after also did many before must through back years where much your way well
down should because each just those people how too little state good very make world
still own see men work long get here between both life being under never day same another
know while last might us great old year off come since against go came right used take
three system information knowledge data search notes page file folder project research
report meeting plan team budget document version user share group index text content
number part place case week company program question government point home water room
mother area national money story fact month lot study book eye job word business issue
side kind head house service friend father power hour game line end member law car city
community name president team minute idea kid body back parent face others level office
door health person art war history party result change morning reason early moment
air teacher force education foot boy age policy process music market sense nation café
naïve résumé Zürich déjà façade`)

// syllables build the long tail of made-up English-looking words. None
// holds q, x or z, so the planted English terms (which do) cannot occur
// by chance.
var (
	onsets = strings.Fields("b c d f g h j k l m n p r s t v w y br cr dr fl gr pl st tr ch sh th sp cl bl")
	nuclei = strings.Fields("a e i o u ai ea ou ee oo ia")
	codas  = []string{"", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ng", "ck", "rt"}
)

// chineseTop is real Chinese words, most common first.
var chineseTop = strings.Fields(`的 了 是 在 我们 一个 和 知识 系统 发展 工作 问题 进行 可以 没有 他们 这个
我 你 他 也 就 都 而 对 上 下 时候 已经 通过 研究 管理 数据 技术 用户 文件 内容 方法 社会
经济 国家 企业 学习 文档 项目 服务 信息 需要 能够 因为 所以 如果 但是 以及 其中 会议 记录
团队 计划 预算 搜索 页面 版本 共享 分析 结果 报告 目标 时间 问题 重要 情况 中国 世界 生活`)

// chineseChars are common Chinese characters, roughly most common first;
// made-up Chinese words are drawn from them.
const chineseChars = `的一是不了人我在有他这中大来上个国们到说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去` +
	`法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全` +
	`三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度` +
	`门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建` +
	`务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色` +
	`路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林` +
	`服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约` +
	`示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突` +
	`专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站` +
	`严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破` +
	`网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波` +
	`夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既` +
	`衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份` +
	`穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮露永呼味` +
	`野架域沙掉括舰鱼杂误湾吉减编楚肯测败屋跑梦散温困剑渐封救贵枪缺楼县尚毫移娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康虑幸均销` +
	`钟诗藏赶剧票损忽巨炮旧端探湖录叶春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣择寻厂睡` +
	`博勒烟授诺伦岸奥唐卖俄炸载洛健堂旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶玉镇雪午练迫爷篇肉嘴馆遍凡础洞卷坦牛宁纸诸训私庄` +
	`祖丝翻暴森塔默握戏隐熟骨访弱蒙歌店鬼软典欲萨伙遭盘爸扩盖弄雄稳忘亿刺拥徒姆杨齐赛趣曲刀床迎冰虚玩析窗醒妻透购替塞努休虎扬` +
	`途侵刑绿兄迅套贸毕唯谷轮库迹尤竞街促延震弃甲伟麻川申缓潜闪售灯针哲络抵朱埃抱鼓植纯夏忍页杰筑折郑贝尊吴秀混臣雅振染盛怒舞` +
	`圆搞狂措姓残秋培迷诚宽宇猛摆梅毁伸摩盟末乃悲拍丁赵硬麦蒋操耶阻订彩抽赞魔纷沿喊违妹浪汇币丰蓝殊献桌啦瓦莱援译夺汽烧距裁偏` +
	`符勇触课敬哭懂墙袭召罚侠厅拜巧侧韩冒债曼融惯享戴童犹乘挂奖绍厚纵障讯涉彻刊丈爆乌役描洗玛患妙镜唱烦签仙彼弗症仿倾牌陷鸟轰` +
	`咱菜闭奋庆撤泪茶疾缘播朗杜奶季丹狗尾仪偷奔珠虫驻孔宜艾桥淡翼恨繁寒伴叹旦愈潮粮缩罢聚径恰挑袋灰捕徐珍幕映裂泰隔启尖忠累炎` +
	`暂估泛荒偿横拒瑞忆孤鼻闹羊呆厉衡胞零穷舍码赫婆魂灾洪腿胆津俗辩胸晓劲贫仁偶辑邦恢赖圈摸仰润堆碰艇稍迟辆废净凶署壁御奉旋冬` +
	`矿抬蛋晨伏吹鸡倍糊秦盾杯租骑乏隆诊奴摄丧污渡旗甘耐凭扎抢绪粗肩梁幻菲皆碎宙叔岩荡综爬荷悉蒂返井壮薄悄扫敏碍殖详迪矛霍允幅` +
	`撒剩凯颗骂赏液番箱贴漫酸郎腰舒眉忧浮辛恋餐吓挺励辞艘键伍峰尺昨黎辈贯侦滑券崇扰宪绕趋慈乔阅汗枝拖墨胁插箭腊粉泥氏彭拔骗凤` +
	`慧媒佩愤扑龄驱惜豪掩兼跃尸肃帕驶堡届欣惠册储飘桑闲惨洁踪勃宾频仇磨递邪撞拟滚奏巡颜剂绩贡疯坡瞧截燃焦殿伪柳锁逼颇昏劝呈搜` +
	`勤戒驾漂饮曹朵仔柔俩孟腐幼践籍牧凉牲佳娜浓芳稿竹腹跌逻垂遵脉貌柏狱猜怜惑陶兽帐饰贷昌叙躺钢沟寄扶铺邓寿惧询汤盗肥尝匆辉奈` +
	`扣廷澳嘛董迁凝慰厌脏腾幽怨鞋丢埋泉涌辖躲晋紫艰魏吾慌祝邮吐狠鉴曰械咬邻赤挤弯椅陪割揭韦悟聪雾锋梯猫祥阔誉筹丛牵鸣沈阁穆屈` +
	`旨袖猎臂蛇贺柱抛鼠瑟戈牢逊迈欺吨琴衰瓶恼燕仲诱狼池疼卢仗冠粒遥吕玄尘冯抚浅敦纠钻晶岂峡苍喷耗凌敲菌赔涂粹扁亏寂煤熊恭湿循` +
	`暖糖赋抑秩帽哀宿踏烂袁侯抖夹昆肝擦猪炼恒慎搬纽纹玻渔磁铜齿跨押怖漠疲叛遣兹祭醉拳弥斜档稀捷肤疫肿豆削岗晃吞宏癌肚隶履涨耀` +
	`扭坛拨沃绘伐堪仆郭牺歼墓雇廉契拼惩捉覆刷劫嫌瓜歇雕闷乳串娃缴唤赢莲霸桃妥瘦搭赴岳嘉舱俊址庞耕锐缝悔邀玲惟斥宅添挖呵讼氧浩` +
	`羽斤酷掠妖祸侍乙妨贪挣汪尿莉悬唇翰仓轨枚盐览傅帅庙芬屏寺胖璃愚滴疏萧姿颤丑劣柯寸扔盯辱匹俱辨饿蜂哦腔郁溃谨糟葛苗肠忌溜鸿` +
	`爵鹏鹰笼丘桂滋聊挡纲肌茨壳痕碗穴膀卓贤卧膜毅锦欠哩函茫昂薛皱夸豫胃舌剥傲拾窝睁携陵哼棉晴铃填饲渴吻扮逆脆喘罩卜炉柴愉绳胎` +
	`蓄眠竭喂傻慕浑奸扇柜悦拦诞饱乾泡贼亭夕爹酬儒姻卵氛泄杆挨僧蜜吟猩遂狭肖甜霞驳裕顽於摘矮秒卿畜咽披辅勾盆疆赌塑畏吵囊嗯泊肺` +
	`骤缠冈羞瞪吊贾漏斑涛悠鹿俘锡卑葬铭滩嫁催璇翅盒蛮矣潘歧赐鲍锅廊拆灌勉盲宰佐啥胀扯禧辽抹筒棋裤唉朴咐孕誓喉妄拘链驰栏逝窃艳` +
	`臭纤玑棵趁匠盈翁愁瞬婴孝颈倘浙谅蔽畅赠妮莎尉冻跪闯葡後厨鸭颠遮谊圳吁仑辟瘤嫂陀框谭亨钦庸歉芝吼甫衫摊宴嘱衷娇陕矩浦讶耸裸` +
	`碧摧薪淋耻胶屠鹅饥盼脖虹翠崩账萍逢赚撑翔倡绵猴枯巫昭怔渊凑溪蠢禅阐旺寓藤匪伞碑挪琼脂谎慨菩萄狮掘抄岭晕逮砍掏狄晰罕挽脾舟` +
	`痴蔡剪脊弓懒叉拐喃僚捐姊骚拓歪粘柄坑陌窄湘兆崖骄刹鞭芒筋聘钩棍嚷腺弦焰耍俯厘愣厦恳饶钉寡憾摔叠惹喻谱愧煌徽溶坠煞巾滥洒堵` +
	`瓷咒姨棒郡浴媚稣淮哎屁漆淫巢吩撰啸滞玫硕钓蝶膝姚茂躯吏猿寨恕渠戚辰舶颁惶狐讽笨袍嘲啡泼衔倦涵雀旬僵撕肢垄夷逸茅侨舆窑涅蒲` +
	`谦杭噢弊勋刮郊凄捧浸砖鼎篮蒸饼亩肾陡爪兔殷贞荐哑炭坟眨搏咳拢舅昧擅爽咖搁禄雌哨巩绢螺裹昔轩谬谍龟媳姜瞎冤鸦蓬巷琳栽沾诈斋` +
	`瞒彪厄咨纺罐桶壤糕颂膨谐垒咕隙辣绑宠嘿兑霉挫稽辐乞纱裙嘻哇绣杖塘衍轴攀膊譬斌祈踢肆坎轿棚泣屡躁邱凰溢椎砸趟帘帆栖窜丸斩堤` +
	`塌贩厢掀喀乖谜捏阎滨虏匙芦苹卸沼钥株祷剖熙哗劈怯棠胳桩瑰娱娶沫嗓蹲焚淘嫩韵衬匈钧竖峻豹捞菊鄙魄兜哄颖镑屑蚁壶怡渗秃迦旱哟` +
	`咸焉谴宛稻铸锻伽詹毙恍贬烛骇芯汁桓坊驴朽靖佣汝碌迄冀荆崔雁绅珊榜诵傍彦醇笛禽勿娟瞄幢寇睹贿踩霆呜拱妃蔑谕缚诡篷淹腕煮倩卒` +
	`勘馨逗甸贱炒灿敞蜡囚栗辜垫妒魁谣寞蜀甩涯枕丐泳奎泌逾叮黛燥掷藉枢憎鲸弘倚侮藩拂鹤蚀浆芙垃烤晒霜剿蕴圾绸屿氢驼妆捆铅逛淑榴` +
	`丙痒钞蹄犬躬昼藻蛛褐颊奠募耽蹈陋侣魅岚侄虐堕陛莹荫狡阀绞膏垮茎缅喇绒搅凳梭丫姬诏钮棺耿缔懈嫉灶匀嗣鸽澡凿纬沸畴刃遏烁嗅叭` +
	`熬瞥骸奢拙栋毯桐砂莽泻坪梳杉晤稚蔬蝇捣顷麽尴镖诧尬硫嚼羡沦沪旷彬芽狸冥碳咧惕暑咯萝汹腥窥俺潭崎麟捡拯厥澄萎哉涡滔暇溯鳞酿` +
	`茵愕瞅暮衙诫斧兮焕棕佑嘶妓喧蓉删樱伺嗡娥梢坝蚕敷澜杏绥冶庇挠搂倏聂婉噪稼鳍菱盏匿吱寝揽髓秉哺矢啪帜邵嗽挟缸揉腻驯缆晌瘫贮` +
	`觅朦僻隋蔓咋嵌虔畔琐碟涩胧嘟蹦冢浏裔襟叨诀旭虾簿啤擒枣嘎苑牟呕骆凸熄兀喔裳凹赎屯膛浇灼裘砰棘橡碱聋姥瑜毋娅沮萌俏黯撇粟粪` +
	`尹苟癫蚂禹廖俭帖煎缕窦簇棱叩呐瑶墅莺烫蛙歹伶葱哮眩坤廓讳啼乍瓣矫跋枉梗厕琢讥釉窟敛轼庐胚呻绰扼懿炯竿慷虞锤栓桨蚊磅孽惭戳` +
	`禀鄂馈垣溅咚钙礁彰豁眯磷雯墟迂瞻颅琉悼蝴拣渺眷悯汰慑婶斐嘘镶炕宦趴绷窘襄珀嚣拚酌浊毓撼嗜扛峭磕翘槽淌栅颓熏瑛颐忖`

// rareTerms are planted in 1–3 files each. The English ones hold letter
// pairs no vocabulary word has; "informationsystem" is made only of
// common trigrams (the worst case for a trigram index). Every Chinese
// one but 量子纠缠 has a character the generator never draws; 量子纠缠 is
// made of common characters and is checked for in every generated file.
var rareTerms = []struct {
	text  string
	files int
}{
	{"zqvortex", 1},
	{"Quazelbrix", 2},
	{"xylqenthorp", 3},
	{"informationsystem", 2},
	{"麒麟", 1},
	{"饕餮", 3},
	{"鲲鹏展翅", 2},
	{"量子纠缠", 1},
}

// commonTerms are frequent in the corpus by construction: top-ranked words
// and a frequent phrase.
var commonTerms = []string{"the", "system", "of the", "我们", "知识", "数据"}

// checkedTerms are rare terms made of characters the generator draws.
var checkedTerms = []string{"量子纠缠"}

// bannedRunes are the first characters of the Chinese rare terms that are
// not checked for: the generator never draws them.
func bannedRunes() map[rune]bool {
	banned := map[rune]bool{}
	for _, t := range rareTerms {
		r, _ := utf8.DecodeRuneInString(t.text)
		if r >= 0x3000 && !slices.Contains(checkedTerms, t.text) {
			banned[r] = true
		}
	}
	return banned
}

// vocabulary is what the generator draws words from.
type vocabulary struct {
	english []string
	chinese []string
	hanzi   []rune // characters for made-up Chinese words
}

func newVocabulary(size int) *vocabulary {
	banned := bannedRunes()
	v := &vocabulary{}
	seen := map[rune]bool{}
	for _, r := range chineseChars {
		if !seen[r] && !banned[r] && utf8.RuneLen(r) == 3 {
			seen[r] = true
			v.hanzi = append(v.hanzi, r)
		}
	}
	// The vocabulary is part of the corpus: a fixed seed keeps it stable.
	rng := rand.New(rand.NewPCG(0x6b6e6f77, 0x73706163))
	v.english = append(v.english, englishTop...)
	for len(v.english) < size {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString(onsets[rng.IntN(len(onsets))])
			b.WriteString(nuclei[rng.IntN(len(nuclei))])
			b.WriteString(codas[rng.IntN(len(codas))])
		}
		v.english = append(v.english, b.String())
	}
	v.chinese = append(v.chinese, chineseTop...)
	for len(v.chinese) < size {
		n := 1 + rng.IntN(3)
		if rng.IntN(3) > 0 {
			n = 2 // most Chinese words have two characters
		}
		var b strings.Builder
		for range n {
			// Squaring favours the front of the list, the common characters.
			f := rng.Float64()
			b.WriteRune(v.hanzi[int(f*f*float64(len(v.hanzi)))])
		}
		v.chinese = append(v.chinese, b.String())
	}
	for _, w := range chineseTop {
		for _, r := range w {
			if banned[r] {
				panic(fmt.Sprintf("searchcorpus: common Chinese word %q holds a banned character", w))
			}
		}
	}
	for _, w := range v.english {
		for _, t := range rareTerms {
			if strings.Contains(strings.ToLower(w), strings.ToLower(t.text)) {
				panic(fmt.Sprintf("searchcorpus: vocabulary word %q holds rare term %q", w, t.text))
			}
		}
	}
	return v
}
