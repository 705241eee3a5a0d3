// Name equivalences: spellings of one name that are too far apart for edit distance
// or phonetic keys (Yevgeniy/Evgeny/Yevhen, Aleksandr/Oleksandr, Hussein/Husayn),
// drawn from the romanisation systems the lists mix (BGN/PCGN, Ukrainian national,
// French and English renderings of Arabic, Korean RR/MR). Each group is one name in
// several spellings; translations (Joseph/Yusuf, Peter/Pyotr) are deliberately left
// out because they are different names to a reviewer.

import { consonantSkeleton } from './abjad.js';

const GROUPS: string[] = [
  // Arabic
  'muhammad mohammad mohammed muhammed mohamed mohamad muhamad mohamud mohammod mehmet mehmed mohd muhamed mokhammad magomed mukhammad mahammad',
  'ahmad ahmed ahmet akhmad akhmed achmed ahmat',
  'mahmud mahmoud mahmood mehmood makhmud',
  'mustafa mostafa moustafa mustapha mustafah mostapha',
  'husayn hussein hussain husain hossein hosein husein hussien husseyn hussin',
  'hasan hassan hasen hassen hasaan',
  'yusuf yousef youssef yusef yousif yusif yousuf yussuf yosef youcef',
  'ibrahim ebrahim ibragim ibraheem ebraheem brahim',
  'ismail ismael ismayil esmail ismaeel',
  'abdallah abdullah abdulla abdalla abdellah abdallahi',
  'abd abdul abdel abdal abdoul abdu abdoul',
  'rahman rahmane rehman rakhman',
  'rahim raheem rakhim',
  'karim kareem',
  'khalid khaled khaled kaled',
  'khalil khaleel halil',
  'said saeed sayed sayyid syed saed sayeed',
  'salih saleh salah salekh',
  'umar omar omer umer',
  'usama osama oussama usamah osamah',
  'uthman othman osman usman uthmaan',
  'ali aly',
  'yahya yahia yehia yahiya yehya',
  'jamal gamal djamel',
  'nasir nasser naser nassir nasr nacer',
  'qasim kasim qassim kassem qasem gasim',
  'qadir kadir qader kader',
  'jafar jaafar jafer djafar',
  'zayd zaid zeid',
  'abu abou abo',
  'faisal faysal feisal faycal',
  'husni hosni',
  'sulayman suleiman sulaiman soliman suleyman sulejman',
  'hamid hamed hameed',
  'majid majed maged',
  'walid waleed oualid',
  'tariq tarek tarik tareq',
  'mansur mansour mansoor',
  'nur nour noor nuri nouri',
  'din deen dine eddine eddin uddin',
  // Russian, Ukrainian, Belarusian
  'aleksandr alexander alexandr aleksander oleksandr aleksandar alexandre aliaksandr alyaksandr',
  'aleksey alexey alexei aleksei oleksiy oleksii aliaksei',
  'andrey andrei andriy andrii andrej',
  'anatoliy anatoly anatolii anatoli',
  'dmitriy dmitry dmitri dmytro dzmitry dmitrii',
  'evgeniy yevgeniy evgeny yevgeny evgenii yevhen yevgen evgueni eugene yevgenii',
  'evgeniya yevgeniya evgenia yevgenia',
  'fedor fyodor fiodor fedir',
  'georgiy georgy georgii heorhiy heorhii georgi',
  'grigoriy grigory grigorii hryhoriy hryhorii',
  'gennadiy gennady gennadii hennadiy hennadii',
  'igor ihor ihar',
  'ilya illia ilia ilja',
  'mikhail mykhailo mikhail mikhaylo mikhal',
  'nikolay nikolai mykola nikolaj mikalai',
  'oleg oleh aleh',
  'pyotr petr piotr petro',
  'sergey sergei serhiy serhii sergej siarhei serguei',
  'valeriy valery valerii valeri',
  'vasiliy vasily vasilii vasyl vasili',
  'viktor victor wiktor',
  'vitaliy vitaly vitalii',
  'vladimir volodymyr uladzimir vladimer',
  'vyacheslav viacheslav vyacheslaw',
  'yuriy yury yuri yurii iurii iouri jurij',
  'yaroslav iaroslav jaroslav',
  'yelena elena olena alena',
  'yekaterina ekaterina katerina kateryna',
  'tatyana tatiana tetiana',
  'natalya natalia nataliya natalja',
  'olga olha volha',
  'iosif yosif josif',
  'konstantin kostiantyn kanstantsin',
  'maksim maxim maksym',
  'matvey matvei',
  'semen semyon semion',
  'stanislav stanislaw',
  'timur temur',
  'zakhar zahar',
  'arkadiy arkady arkadii',
  'leonid leanid',
  'boris barys',
  'artem artyom artiom',
  'kirill kyrylo',
  'yevgenyevich evgenyevich yevgenievich evgenievich',
  'aleksandrovich alexandrovich oleksandrovych',
  'sergeyevich sergeevich serhiyovych',
  'vladimirovich volodymyrovych',
  'nikolayevich nikolaevich mykolayovych',
  'anatolyevich anatolievich anatoliyovych',
  'yuryevich yurievich yuriyovych',
  // Korean
  'kim gim',
  'lee yi ri rhee li',
  'park pak bak',
  'choe choi chwe',
  'jong jeong chong jung chung',
  'un eun',
  'ryu yoo yu',
  'roh ro',
  'pyon pyun byun byon',
  'jo cho',
  'sin shin',
  'son sohn',
];

const GROUP_OF = new Map<string, number>();
GROUPS.forEach((line, index) => {
  for (const name of line.split(/\s+/)) {
    if (!/^[a-z]+$/.test(name)) continue;
    if (!GROUP_OF.has(name)) GROUP_OF.set(name, index);
  }
});

/** Consonant skeletons of every spelling in a group, so Arabic script can meet the group ("فيصل" ↔ "Faycal"). */
let groupSkeletons: Map<number, Set<string>> | undefined;
let groupsBySkeleton: Map<string, number[]> | undefined;

function buildSkeletons(): void {
  groupSkeletons = new Map();
  groupsBySkeleton = new Map();
  GROUPS.forEach((line, index) => {
    const set = new Set<string>();
    for (const name of line.split(/\s+/)) if (/^[a-z]+$/.test(name)) set.add(consonantSkeleton(name));
    groupSkeletons!.set(index, set);
    for (const sk of set) {
      const list = groupsBySkeleton!.get(sk) ?? [];
      list.push(index);
      groupsBySkeleton!.set(sk, list);
    }
  });
}

/** Whether some spelling of `group` has this consonant skeleton. */
export function groupHasSkeleton(group: number, skeleton: string): boolean {
  if (!groupSkeletons) buildSkeletons();
  return groupSkeletons!.get(group)?.has(skeleton) ?? false;
}

/** Groups one of whose spellings has this consonant skeleton. */
export function groupsWithSkeleton(skeleton: string): readonly number[] {
  if (!groupsBySkeleton) buildSkeletons();
  return groupsBySkeleton!.get(skeleton) ?? [];
}

/** The equivalence group of a normalised token, or -1. */
export function equivalenceGroup(token: string): number {
  return GROUP_OF.get(token) ?? -1;
}

/** All spellings in the group of `token` (for explanations and candidate expansion). */
export function equivalentSpellings(token: string): string[] {
  const group = GROUP_OF.get(token);
  if (group === undefined) return [];
  return GROUPS[group]!.split(/\s+/).filter((n) => /^[a-z]+$/.test(n));
}
